import ArgumentParser
import VoiceJournal
import VoiceJournalPages

/// `voicejournal question add|list`.
struct QuestionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "question", abstract: "Add and list questions to be answered with a recording.",
        subcommands: [Add.self, List.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a question to a journal.",
            discussion: "Example: voicejournal question add --journal \"Family stories\" \"Where did you grow up?\"")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "The journal the question belongs to.") var journal: String
        @Argument(help: "The question.") var text: String

        func run() async throws {
            let question = try global.openStore().addQuestion(journal: journal, text: text)
            try output.show(question) { "Added question #\(try $0.storedId()). Give it to someone with: voicejournal assign \(try $0.storedId()) --person NAME" }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List questions in order.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only this journal's questions.", completion: .custom(LiveCompletions.journals)) var journal: String?

        func run() async throws { try output.show(try global.openStoreForReading().questions(journal: journal), JournalTables.questions) }
    }
}
