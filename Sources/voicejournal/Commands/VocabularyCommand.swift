import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// `voicejournal vocabulary add|list|remove`.
struct VocabularyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vocabulary", abstract: "Keep a journal's names and terms, sent to the model so it spells them right.",
        discussion: CommandHelp.vocabulary,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add words or names (quote ones with spaces).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The journal (default: Personal).", completion: .custom(LiveCompletions.journals)) var journal: String?
        @Argument(help: "Words, e.g. Anneliese Siobhan \"Acme GmbH\".") var words: [String]

        func run() async throws {
            let addition = try global.openStore().addVocabulary(words, journal: journal, now: Now.date())
            print(TerminalText.escaped(addition.text))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the vocabulary, most recent first; * marks what the prompt holds.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only this journal (default: every journal).", completion: .custom(LiveCompletions.journals)) var journal: String?

        /// The `*`s: each journal's most recent words that fit its prompt (no --prompt given).
        func run() async throws {
            try output.show(try global.openStoreForReading().vocabulary(journal: journal)) { JournalTables.vocabulary($0) { VocabularyPrompt.fitting($0, after: nil) } }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove words from the vocabulary.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The journal (default: Personal).", completion: .custom(LiveCompletions.journals)) var journal: String?
        @Argument(help: "The words to remove.") var words: [String]

        func run() async throws {
            try global.openStore().removeVocabulary(words, journal: journal)
            print("Removed \(words.count) word\(words.count == 1 ? "" : "s") from the vocabulary of \(TerminalText.escaped(journal ?? Journal.defaultName)).")
        }
    }
}
