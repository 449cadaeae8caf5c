import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// `voicejournal journal create|list|show|set|delete`.
struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal", abstract: "Create, list, show and set up journals.",
        subcommands: [Create.self, List.self, Show.self, Set.self, Delete.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a journal.",
            discussion: "Entries go to the \"Personal\" journal (made on first use) unless another is named.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name, e.g. \"Travel\".") var name: String
        @Option(help: "What the journal is for.") var description: String?
        @Option(name: .customLong("for"), help: "Keep it for someone: a person's name, id or \"me\".") var person: String?
        @OptionGroup var spoken: LanguageOptions

        func run() async throws {
            let journal = try global.openStore().createJournal(name: name, description: description, dedicatedTo: person,
                                                               language: spoken.language, translate: spoken.translate, now: Now.date())
            try output.show(journal) { "Created journal \"\(TerminalText.escaped($0.name))\" (#\(try $0.storedId()))." }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List journals with their entry counts.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() async throws { try output.show(try global.openStoreForReading().journals(), JournalTables.journals) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show a journal: its questions in order, where each stands, and its latest entries.",
            discussion: CommandHelp.journalShow)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name.") var name: String
        @Option(parsing: .unconditional, help: "How many recent entries to show.") var limit = 10

        func validate() throws { try validateLimit(limit) }

        func run() async throws {
            let overview = try global.openStoreForReading().journalOverview(named: name, limit: limit)
            try output.show(overview) { JournalPage.text($0, now: Now.date()) }
        }
    }

    /// `voicejournal journal set NAME --language de|--no-language --translate|--no-translate`.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a journal's language and whether its recordings are translated to English.",
            discussion: CommandHelp.journalLanguage)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The journal's name.") var name: String
        @OptionGroup var spoken: LanguageChangeOptions

        func run() async throws {
            let journal = try global.openStore().changeJournal(named: name, language: spoken.change, translate: spoken.translate)
            try output.show(journal) {
                "Journal \"\(TerminalText.escaped($0.name))\": language \(LanguageText.settings(language: $0.language, translate: $0.translate))."
            }
        }
    }
}
