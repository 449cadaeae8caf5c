import ArgumentParser

/// `transcribe` — not built yet (see issue 4).
struct Transcribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe audio files and folders (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'transcribe' is not built yet.")
    }
}
