import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// What `journal show` prints: the journal, its questions in order with where each stands,
/// and its latest entries.
package enum JournalPage {
    /// The page as of `now` (how long an assignment has been waiting).
    package static func text(_ overview: JournalOverview, now: Date) -> String {
        let journal = overview.journal
        let kept = overview.dedicatedTo.map { " — kept for \(TerminalText.escaped($0.name))" } ?? ""
        var lines = ["\(TerminalText.escaped(journal.name))\(kept) — created \(LocalDate.short(journal.createdAt))"]
        if let description = journal.description { lines.append(TerminalText.escapedLines(description)) }
        if journal.language != nil || journal.translate {
            lines.append("Language: " + TerminalText.escaped(LanguageText.settings(language: journal.language, translate: journal.translate)))
        }
        if !overview.questions.isEmpty {
            lines.append("\nQuestions:")
            lines.append(Table(headers: ["#", "ID", "QUESTION", "STATE"], rows: overview.questions.flatMap { question in
                states(of: question, now: now).enumerated().map { index, state in
                    index == 0 ? [String(question.displayOrder), "#\(question.id)", question.text, state] : ["", "", "", state]
                }
            }, maxColumnWidth: 60).render())
        }
        lines.append(overview.entries.isEmpty ? "\nNo entries yet." : "\nLatest entries:")
        if !overview.entries.isEmpty { lines.append(JournalTables.entries(overview.entries)) }
        return lines.joined(separator: "\n")
    }

    /// One line per assignment: `draft`, `awaiting Rose for 3 days`,
    /// `answered 2026-11-20 by Rose: "I grew up by the sea…"`.
    package static func states(of question: TimelineQuestion, now: Date) -> [String] {
        guard !question.assignments.isEmpty else { return ["draft"] }
        return question.assignments.map { assignment in
            guard assignment.status == .answered else {
                return "awaiting \(assignment.person) for \(span(from: assignment.sentAt ?? assignment.createdAt, to: now))"
            }
            let when = assignment.answeredAt.map(LocalDate.short) ?? "-"
            let words = assignment.transcript.map { firstWords($0) } ?? "(transcript not there yet)"
            return "answered \(when) by \(assignment.person): \(words)"
        }
    }

    /// "12 minutes", "5 hours", "3 days" (whole units, rounded down).
    package static func span(from start: Date, to end: Date) -> String {
        let seconds = max(0, Int(end.timeIntervalSince(start)))
        let (count, unit) = seconds >= 86_400 ? (seconds / 86_400, "day") : seconds >= 3600 ? (seconds / 3600, "hour")
            : (seconds / 60, "minute")
        return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }

    /// The first eight words, quoted, with "…" when there are more.
    package static func firstWords(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return "\"" + words.prefix(8).joined(separator: " ") + (words.count > 8 ? "…" : "") + "\""
    }
}
