import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages

/// `voicejournal backup FILE`: the journal and its audio in one archive.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save the whole journal and its audio in one file.", discussion: CommandHelp.backup)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The file to write, or - for standard output.") var file: String
    @Flag(help: "Replace FILE if it is there.") var force = false

    func run() async throws {
        let store = try global.openStoreForReadingQuietly()
        let terminal = isatty(STDERR_FILENO) == 1 && !output.json
        let summary = try BackupText.write(store, to: file, force: force) { done, total in
            guard terminal, total > 0 else { return }
            FileHandle.standardError.write(Data("\rCopying audio: \(done) of \(total) files\u{1B}[K\(done == total ? "\r\u{1B}[K" : "")".utf8))
        }
        for notice in BackupText.missingNotices(summary) { printNotice(notice) }
        try output.show(summary) { BackupText.summary($0, file: file) }
    }
}

/// `voicejournal restore FILE`: a backup back into an empty data folder, or chosen entries into this journal.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup into an empty data folder, or bring chosen entries back.", discussion: CommandHelp.restore)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The file 'voicejournal backup' wrote.") var file: String
    @Option(name: .customLong("entry"), help: "Bring back this entry (repeatable).") var entries: [Int64] = []
    @Flag(help: "List the entries the backup has and this journal does not; change nothing.") var list = false

    func validate() throws { if list, !entries.isEmpty { throw ValidationError("--list and --entry go one at a time") } }

    func run() async throws {
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let store = try global.openStore()
        if list { return try output.show(try store.entriesMissing(from: url)) { BackupText.missing($0, file: file) } }
        let summary = try entries.isEmpty ? store.restore(from: url) : store.restore(entries: entries, from: url)
        try output.show(summary) { BackupText.summary($0, into: store.home, chosen: entries) }
    }
}
