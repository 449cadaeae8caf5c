import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages

/// `voicejournal import FILE`: reads an `export --format json` back into an empty data folder.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a JSON export back into an empty data folder.",
        discussion: """
            Every row comes back as it was exported (ids, times, transcripts with their segments, \
            queued jobs); the search index is rebuilt. The data folder must hold no journal yet: \
            import into a new one with --home DIR. Audio files are not part of the export: \
            recordings keep the paths they had. Every value is checked first (types, kinds, times, \
            ids, the rows each row refers to), and every path: a recording's must be a file under \
            the data folder's audio/ or lie outside the data folder. A transcript's review is \
            untrusted data too: at most 100,000 words, unheard stretches, left-out pieces or \
            re-sends; every time finite, from 0, its start before its end; avgLogprob from -1000 \
            to 0, noSpeechProb from 0 to 1; reasons silence, no-speech, repetition or outside-audio; words up to \
            1,000 and left-out text up to 100,000 characters. A document that breaks a rule is \
            refused with one line naming the row and field, and nothing is imported.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The file 'voicejournal export --format json' wrote.") var file: String

    func run() async throws {
        let archive = try JournalArchive.read(contentsOf: URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
        let store = try global.openStore()
        try output.show(try store.archiver.importArchive(archive)) { ImportText.summary($0, into: store.home) }
    }
}
