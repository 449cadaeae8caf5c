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

        func run() async throws {
            let journal = try global.openStore().createJournal(name: name, description: description)
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
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a journal: its questions and latest entries.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name.") var name: String
        @Option(parsing: .unconditional, help: "How many recent entries to show.") var limit = 10

        func validate() throws { try validateLimit(limit) }

        struct Shown: Encodable {
            let journal: Journal
            let questions: [QuestionSummary]
            let entries: [EntryDetails]
        }

        func run() async throws {
            let store = try global.openStoreForReading()
            let journal = try store.journal(named: name)
            let shown = Shown(journal: journal, questions: try store.questions(journal: journal.name),
                              entries: try store.entries(EntryFilter(journal: journal.name, limit: limit)))
            if output.json { return try printJSON(shown) }
            print("\(TerminalText.escaped(journal.name)) — created \(shortDate(journal.createdAt))")
            if let description = journal.description { print(TerminalText.escapedLines(description)) }
            if !shown.questions.isEmpty {
                print("\nQuestions:")
                for question in shown.questions { print("  #\(question.id)  \(TerminalText.escaped(question.text))") }
            }
            print(shown.entries.isEmpty ? "\nNo entries yet." : "\nLatest entries:")
            if !shown.entries.isEmpty { print(EntryTable.render(shown.entries)) }
        }
    }
}
