import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages

/// `voicejournal import FILE`: reads an `export --format json` back into an empty data folder.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a JSON export back into an empty data folder.",
        discussion: CommandHelp.importing)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The file 'voicejournal export --format json' wrote.") var file: String

    func run() async throws {
        let archive = try JournalArchive.read(contentsOf: URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
        let store = try global.openStore()
        try output.show(try store.archiver.importArchive(archive)) { ImportText.summary($0, into: store.home) }
    }
}
