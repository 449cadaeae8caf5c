import ArgumentParser

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Entry counts,streaks and moods")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'stats' is not built yet.") }
}
