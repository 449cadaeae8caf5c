import ArgumentParser

/// `answer` — not built yet (see issue 3).
struct Answer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Record (or attach) the answer to an assignment (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'answer' is not built yet.")
    }
}
