import ArgumentParser

struct EntryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "entry", abstract: "Add,list,show and delete entries")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'entry' is not built yet.") }
}
