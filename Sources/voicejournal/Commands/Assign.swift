import ArgumentParser

struct Assign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assign", abstract: "Give a question to a person")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'assign' is not built yet.") }
}
