import ArgumentParser

struct AssignmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assignment", abstract: "List assignments")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'assignment' is not built yet.") }
}
