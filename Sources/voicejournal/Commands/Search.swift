import ArgumentParser

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search entries and transcripts")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'search' is not built yet.") }
}
