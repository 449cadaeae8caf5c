import Foundation
import VoiceJournalChat
import VoiceJournalStore
import VoiceJournalTerminal

/// A stored reflection on a week or a month as `reflect --week` and `--month` print it, or as
/// `--json` writes it: the numbers (counted by SQL, as they were shown to the model), then
/// the model's narrative with the entries it cites shown as the journal has them, `status`
/// with the reasons, and `usage`.
package struct PeriodReflectionPage: Encodable, Sendable {
    package var stored: StoredReflection
    /// What the reflection's fields hold; nil when they do not read.
    package var record: PeriodRecord?
    /// The checked reflection; nil for a failed one.
    package var reflection: PeriodReflection?
    /// The period and its entries as they are now.
    package var subject: PeriodSubject
    package var calendar: Calendar

    /// The page of `stored`, its citations checked again against the period as it is now:
    /// an entry it cites that is no longer one of the period's (deleted since, or brought in
    /// by an import) makes it a failed one, with why.
    package init(_ stored: StoredReflection, subject: PeriodSubject, calendar: Calendar = .current) {
        var stored = stored
        record = PeriodRecord.decode(stored)
        reflection = stored.status == .valid ? record?.reflection : nil
        if stored.status == .valid {
            var reasons: [String] = []
            if let reflection {
                let ids = Set(subject.entryIds)
                for id in reflection.cited where !ids.contains(id) {
                    reasons.append("entry \(id) is no longer an entry of this \(subject.period.kind.rawValue) (deleted since?)")
                }
            } else {
                reasons.append("its stored fields do not read as a reflection on a \(subject.period.kind.rawValue)")
            }
            if !reasons.isEmpty {
                stored.status = .failed
                stored.reasons = reasons
                reflection = nil
            }
        }
        self.stored = stored
        self.subject = subject
        self.calendar = calendar
    }

    /// The numbers shown: as the model was given them, or (fields that do not read) as they are now.
    var numbers: PeriodNumbers { record?.numbers ?? subject.numbers }

    /// The command that asks for this period's reflection again.
    var askAgain: String {
        let day = PeriodFacts.format("yyyy-MM-dd", calendar).string(from: subject.period.start)
        let which = subject.period.kind == .week ? "--week \(day)" : "--month \(subject.period.label)"
        return "voicejournal reflect \(which)" + (subject.journal.map { " --journal \(Self.quoted($0))" } ?? "") + " --again"
    }

    static func quoted(_ name: String) -> String {
        name.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }) ? "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'" : name
    }

    /// The period's numbers, labelled, as lines under a title.
    static func numberLines(_ numbers: PeriodNumbers, subject: PeriodSubject, calendar: Calendar) -> [String] {
        let title = PeriodFacts.title(subject.period, journal: subject.journal, calendar: calendar)
        var lines = [TerminalText.escaped(title.prefix(1).uppercased() + title.dropFirst()) + " — counted by the journal:"]
        let facts = PeriodFacts.lines(numbers, period: subject.period, calendar: calendar)
        let width = (facts.map(\.label.count).max() ?? 0) + 1
        for fact in facts {
            lines.append("  " + (fact.label + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0) + TerminalText.escaped(fact.value))
        }
        return lines
    }

    /// The page as lines: the numbers, then what the model said (marked as the model's), or
    /// a failed reflection's reasons and how to ask again. Every word from the model is escaped.
    package func lines() -> [String] {
        var lines = Self.numberLines(numbers, subject: subject, calendar: calendar)
        if let record, record.numbers.entries != subject.numbers.entries || record.numbers.words != subject.numbers.words
            || record.numbers.moods != subject.numbers.moods || record.numbers.themes != subject.numbers.themes
            || record.numbers.people != subject.numbers.people {
            lines.append("  (as they were when it was asked; the \(subject.period.kind.rawValue) has changed since: --again asks anew)")
        }
        lines.append("")
        guard let reflection else {
            lines.append(ReflectionPage.failedHeading(stored))
            lines += stored.reasons.map { "  - " + TerminalText.escaped($0) }
            lines.append("Ask again: " + TerminalText.escaped(askAgain))
            return lines
        }
        lines.append("Reflection (\(ReflectionPage.usageText(stored))) — the model's words; the entries it cites are the journal's own:")
        lines.append("  Narrative: " + TerminalText.escaped(reflection.narrative))
        for entry in cited { lines.append("  Cited #\(entry.entry) (\(LocalDate.short(entry.createdAt))): " + TerminalText.escaped(entry.text)) }
        for question in reflection.questions { lines.append("  Question: " + TerminalText.escaped(question)) }
        lines.append("  Encouragement: " + TerminalText.escaped(reflection.encouragement))
        return lines
    }

    /// A cited entry as the journal has it: its id, when it was made, its first words.
    struct Cited: Encodable {
        var entry: Int64
        var createdAt: Date
        var text: String
    }

    var cited: [Cited] {
        (reflection?.cited ?? []).compactMap { id in
            subject.entries.first { $0.id == id }.map { Cited(entry: $0.id, createdAt: $0.createdAt, text: ChatText.oneLine($0.text, limit: 100)) }
        }
    }

    struct Period: Encodable {
        var kind: String
        var label: String
        var start: Date
        var end: Date
    }

    enum CodingKeys: String, CodingKey {
        case id, period, journal, status, reasons, numbers, narrative, cited, questions, encouragement
        case model, endpoint, promptVersion, usage, createdAt
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stored.id, forKey: .id)
        try container.encode(Self.period(subject.period), forKey: .period)
        try container.encode(subject.journal, forKey: .journal)
        try container.encode(stored.status.rawValue, forKey: .status)
        try container.encode(stored.reasons, forKey: .reasons)
        try container.encode(numbers, forKey: .numbers)
        try container.encode(reflection?.narrative, forKey: .narrative)
        try container.encode(reflection.map { _ in cited }, forKey: .cited)
        try container.encode(reflection?.questions, forKey: .questions)
        try container.encode(reflection?.encouragement, forKey: .encouragement)
        try container.encode(stored.model, forKey: .model)
        try container.encode(stored.endpointHost, forKey: .endpoint)
        try container.encode(stored.promptVersion, forKey: .promptVersion)
        try container.encode(ReflectionPage.Usage(of: stored), forKey: .usage)
        try container.encode(stored.createdAt, forKey: .createdAt)
    }

    static func period(_ period: JournalPeriod) -> Period {
        Period(kind: period.kind.rawValue, label: period.label, start: period.start, end: period.end)
    }

    /// A period without entries: nothing to reflect on, and nothing is sent.
    struct Empty: Encodable {
        var period: Period
        var journal: String?
        var status = "empty"
        var numbers: PeriodNumbers

        enum CodingKeys: String, CodingKey { case period, journal, status, numbers }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(period, forKey: .period)
            try container.encode(journal, forKey: .journal)
            try container.encode(status, forKey: .status)
            try container.encode(numbers, forKey: .numbers)
        }
    }
}
