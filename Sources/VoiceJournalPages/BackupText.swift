import Foundation
import Synchronization
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal

/// `backup` and `restore` at the command line: where the archive goes and what is said.
package enum BackupText {
    /// Writes a backup of `store` to `path` (`-`: standard output, never a terminal): through
    /// a private temporary file beside it (0600, renamed into place when whole), so a backup
    /// interrupted or failed never stands where a good one did. An existing file is replaced
    /// only with `force`. Ctrl-C (or SIGTERM) stops it and removes what was half-written.
    package static func write(_ store: JournalStore, to path: String, force: Bool,
                              progress: @escaping (Int, Int) -> Void) throws -> BackupSummary {
        guard store.access != .empty else {
            throw StoreError.invalidInput("there is no journal in \(store.home.url.path) to back up (is --home or $VOICEJOURNAL_HOME the folder you meant?)")
        }
        let stop = StopRequest()
        let watch = SignalWatch { _ in stop.press() }
        defer { watch.cancel() }
        let shouldStop = { stop.isPressed }
        if path == "-" {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw StoreError.invalidInput("a backup is a binary file: redirect it (voicejournal backup - > FILE) or name a FILE")
            }
            return try store.backup(to: .standardOutput, shouldStop: shouldStop, progress: progress)
        }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw StoreError.invalidInput("\(url.path) is a folder: name the backup file, e.g. \(url.path)/voicejournal.tar") }
            guard force else { throw StoreError.conflict("\(url.path) is already there: add --force to replace it, or name another file") }
        }
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw StoreError.invalidInput("cannot write \(url.path): there is no folder \(folder.path)")
        }
        do {
            return try PrivateFile.write(to: url) { handle in (true, try store.backup(to: handle, shouldStop: shouldStop, progress: progress)) }
        } catch let error as POSIXError {
            throw StoreError(error.code == .ENOSPC ? .storageFull : .storageFailure,
                             "cannot write \(url.path): \(SystemError.text(error.code.rawValue))")
        }
    }

    /// "Backed up 12 entries and 15 recordings (14 audio files, 230.1 MB) to FILE (230.4 MB)."
    package static func summary(_ summary: BackupSummary, file: String) -> String {
        let entries = count(summary.entries, "entry", "entries")
        let recordings = count(summary.recordings, "recording", "recordings")
        let target = file == "-" ? "standard output" : TerminalText.escaped(file)
        return "Backed up \(entries) and \(recordings) (\(count(summary.audioFiles, "audio file", "audio files")), "
            + "\(megabytes(summary.audioBytes))) to \(target) (\(megabytes(summary.bytes)))."
    }

    /// One line per recording whose audio could not be read: its row is in the backup, its audio is not.
    package static func missingNotices(_ summary: BackupSummary) -> [String] {
        summary.missing.map { "recording #\($0.recording): its audio could not be read (\($0.reason)); the backup holds its transcript and details without it" }
    }

    /// What a restore brought back, and how to see it.
    package static func summary(_ summary: RestoreSummary, into home: DataHome, chosen: [Int64]) -> String {
        let taken = LocalDate.short(summary.backupTakenAt)
        var lines = ["Restored \(count(summary.entries, "entry", "entries")) and \(count(summary.recordings, "recording", "recordings")) "
            + "(\(count(summary.audioFiles, "audio file", "audio files")), \(megabytes(summary.audioBytes))) from the backup of \(taken) "
            + "into \(TerminalText.escaped(home.url.path))."]
        if !summary.recordingsWithoutAudio.isEmpty {
            lines.append("Without audio (it was missing when the backup was taken): recording "
                + summary.recordingsWithoutAudio.map { "#\($0)" }.joined(separator: ", ") + ".")
        }
        if let first = chosen.first {
            lines.append("See it: voicejournal entry show \(first)" + (summary.recordings > 0 ? "   play it: voicejournal play \(first)" : ""))
        } else {
            lines.append("See it: voicejournal entry list")
        }
        return lines.joined(separator: "\n")
    }

    /// `restore FILE --list`: the entries the backup has and the journal does not.
    package static func missing(_ entries: [MissingEntry], file: String) -> String {
        guard let first = entries.first else { return "The journal has every entry of \(TerminalText.escaped(file)): there is nothing to bring back." }
        return Table(headers: ["ID", "DATE", "JOURNAL", "AUDIO", "TEXT"], rows: entries.map {
            [String($0.id), LocalDate.short($0.createdAt), $0.journal, $0.recordings > 0 ? "yes" : "-", $0.text.isEmpty ? "(no text)" : $0.text]
        }).render() + "\nBring one back: voicejournal restore \(TerminalText.escaped(file)) --entry \(first.id)"
    }

    private static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    private static func megabytes(_ bytes: UInt64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// A stop asked for by a signal, read by the work it stops.
private final class StopRequest: Sendable {
    private let pressed = Atomic<Bool>(false)
    func press() { pressed.store(true, ordering: .relaxed) }
    var isPressed: Bool { pressed.load(ordering: .relaxed) }
}
