import ArgumentParser

struct PersonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "person", abstract: "Add and list people")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'person' is not built yet.") }
}
