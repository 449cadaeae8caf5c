import ArgumentParser

/// `devices` — not built yet (see issue 3).
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture devices (not built yet)")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        throw CLIError.failure("'devices' is not built yet.")
    }
}
