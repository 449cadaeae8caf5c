import Foundation
import ArgumentParser
import Store
import Terminal

/// `voicejournal journal create|list|show`.
struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Create, list and show journals.",
        subcommands: [Create.self, List.self, Show.self, Delete.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a journal.",
            discussion: "Entries go to the \"Personal\" journal (made on first use) unless another is named.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name, e.g. \"Travel\".") var name: String
        @Option(help: "What the journal is for.") var description: String?
        @Option(name: .customLong("for"), help: "Keep it for someone: a person's name, id or \"me\".") var person: String?

        func run() async throws {
            let journal = try global.openStore().createJournal(name: name, description: description, dedicatedTo: person,
                                                               now: Now.date())
            if output.json { return try printJSON(journal) }
            print("Created journal \"\(TerminalText.escaped(journal.name))\" (#\(journal.id ?? 0)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List journals with their entry counts.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let journals = try global.openStoreForReading().journals()
            if output.json { return try printJSON(journals) }
            guard !journals.isEmpty else {
                return print("No journals yet. Create one with: voicejournal journal create NAME")
            }
            print(Table(headers: ["NAME", "ENTRIES", "QUESTIONS", "LAST ENTRY", "DESCRIPTION"], rows: journals.map {
                [$0.name, String($0.entryCount), String($0.questionCount),
                 $0.lastEntryAt.map(shortDate) ?? "-", $0.description ?? ""]
            }).render())
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a journal: its questions in order, where each stands, and its latest entries.",
            discussion: """
                Each question is a draft (given to nobody), awaiting an answer (given, and for how \
                long), or answered (when, by whom, and how the answer begins).
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name.") var name: String
        @Option(parsing: .unconditional, help: "How many recent entries to show.") var limit = 10

        func validate() throws { try validateLimit(limit) }

        struct Shown: Encodable {
            let journal: Journal
            /// The person the journal is kept for, if any.
            let dedicatedTo: Person?
            let questions: [TimelineQuestion]
            let entries: [EntryDetails]
        }

        func run() async throws {
            let store = try global.openStoreForReading()
            let journal = try store.journal(named: name)
            let shown = Shown(journal: journal, dedicatedTo: try store.dedicatedPerson(of: journal),
                              questions: try store.timeline(journal: journal.name),
                              entries: try store.entries(EntryFilter(journal: journal.name, limit: limit)))
            if output.json { return try printJSON(shown) }
            let kept = shown.dedicatedTo.map { " — kept for \(TerminalText.escaped($0.name))" } ?? ""
            print("\(TerminalText.escaped(journal.name))\(kept) — created \(shortDate(journal.createdAt))")
            if let description = journal.description { print(TerminalText.escapedLines(description)) }
            if !shown.questions.isEmpty {
                print("\nQuestions:")
                print(Table(headers: ["#", "ID", "QUESTION", "STATE"], rows: shown.questions.flatMap { question in
                    Self.states(of: question, now: Now.date()).enumerated().map { index, state in
                        index == 0 ? [String(question.displayOrder), "#\(question.id)", question.text, state] : ["", "", "", state]
                    }
                }, maxColumnWidth: 60).render())
            }
            print(shown.entries.isEmpty ? "\nNo entries yet." : "\nLatest entries:")
            if !shown.entries.isEmpty { print(EntryTable.render(shown.entries)) }
        }

        /// One line per assignment: `draft`, `awaiting Rose for 3 days`,
        /// `answered 2026-11-20 by Rose: "I grew up by the sea…"`.
        static func states(of question: TimelineQuestion, now: Date) -> [String] {
            guard !question.assignments.isEmpty else { return ["draft"] }
            return question.assignments.map { assignment in
                guard assignment.status == .answered else {
                    return "awaiting \(assignment.person) for \(span(from: assignment.sentAt ?? assignment.createdAt, to: now))"
                }
                let when = assignment.answeredAt.map(shortDate) ?? "-"
                let words = assignment.transcript.map { firstWords($0) } ?? "(transcript not there yet)"
                return "answered \(when) by \(assignment.person): \(words)"
            }
        }

        /// "12 minutes", "5 hours", "3 days" (whole units, rounded down).
        static func span(from start: Date, to end: Date) -> String {
            let seconds = max(0, Int(end.timeIntervalSince(start)))
            let (count, unit) = seconds >= 86_400 ? (seconds / 86_400, "day") : seconds >= 3600 ? (seconds / 3600, "hour")
                : (seconds / 60, "minute")
            return "\(count) \(unit)\(count == 1 ? "" : "s")"
        }

        /// The first eight words, quoted, with "…" when there are more.
        static func firstWords(_ text: String) -> String {
            let words = text.split(whereSeparator: \.isWhitespace)
            return "\"" + words.prefix(8).joined(separator: " ") + (words.count > 8 ? "…" : "") + "\""
        }
    }
}
