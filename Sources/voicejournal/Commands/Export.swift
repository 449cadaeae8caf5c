import ArgumentParser

/// `export` — not built yet (no issue yet).
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export journals as Markdown or JSON (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'export' is not built yet.")
    }
}
