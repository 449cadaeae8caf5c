import ArgumentParser

/// `record` — not built yet (see issue 3).
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record from the microphone with a live level meter (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'record' is not built yet.")
    }
}
