import ArgumentParser

/// `queue` — not built yet (see issue 4).
struct Queue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect and run the transcription queue (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'queue' is not built yet.")
    }
}
