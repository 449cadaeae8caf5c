import ArgumentParser

struct QuestionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "question", abstract: "Add and list questions")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'question' is not built yet.") }
}
