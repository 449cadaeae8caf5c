import ArgumentParser

/// `meter` — not built yet (see issue 3).
struct Meter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "Show the live input level, or a file's waveform (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'meter' is not built yet.")
    }
}
