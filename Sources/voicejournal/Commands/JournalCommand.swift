import ArgumentParser

struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "journal", abstract: "Create,list and show journals")
    @OptionGroup var global: GlobalOptions
    func run() async throws { throw CLIError.failure("'journal' is not built yet.") }
}
