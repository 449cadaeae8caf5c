import Foundation
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal

extension JournalExport {
    /// What writing an export into a folder did beyond its documents.
    package struct Written: Sendable {
        /// Audio files copied into `audioFolder`.
        package let copied: Int
        package let audioFolder: URL
        /// Audio left out: found not to be its recording before or while copying.
        package let leftOut: [LeftOut]

        /// The line that says how many audio files were copied, and where; nil when none were.
        package var copiedLine: String? {
            copied > 0 ? "\(copied) audio file\(copied == 1 ? "" : "s") copied into \(TerminalText.escaped(audioFolder.path))" : nil
        }

        /// One notice per audio file left out, with why.
        package var leftOutNotices: [String] {
            leftOut.map { "left out the audio of recording #\($0.recordingId) (\($0.path)): \($0.reason)" }
        }
    }

    /// Writes the documents into `folder` (created if need be; each file 0600, written whole
    /// or not at all), calling `wrote` after each, then copies the audio. A file already
    /// there stops the export before anything is written, unless `force`.
    package func write(into folder: URL, force: Bool, wrote: (URL) -> Void) throws -> Written {
        let files = documents.map { folder.appendingPathComponent($0.name) }
        let copies = audioCopies.map { folder.appendingPathComponent($0.relativePath) }
        // Checked before anything is written, so a refusal leaves the folder as it was.
        let existing = force ? [] : (files + copies).filter { FileManager.default.fileExists(atPath: $0.path) }
        if let first = existing.first {
            // Every file in the way, counted: one refusal says all that --force would replace.
            let more = existing.count > 1 ? " and \(existing.count - 1) more of this export's \(files.count + copies.count) files" : ""
            throw StoreError.conflict("\(first.path)\(more) already exist\(existing.count > 1 ? "" : "s"); nothing was written: "
                                      + "add --force to replace \(existing.count > 1 ? "them" : "it"), or export into an empty folder")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storageFailure, "cannot create the folder \(folder.path): \(SystemError.reason(of: error))")
        }
        for (document, file) in zip(documents, files) {
            do {
                try Self.writePrivately(document, to: file)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.storageFailure, "cannot write \(file.path): \(SystemError.reason(of: error))")
            }
            wrote(file)
        }
        var copied = 0
        var leftOut = leftOut
        for (copy, target) in zip(audioCopies, copies) {
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if let reason = try RecordingCopy.copy(copy.recording, to: target) {
                    // Changed between the document's check and the copy: its link leads nowhere.
                    leftOut.append(LeftOut(recordingId: try copy.recording.storedId(), path: copy.source, reason: reason))
                } else {
                    copied += 1
                }
            } catch {
                throw StoreError(.storageFailure, "cannot copy \(copy.source) to \(target.path): \(SystemError.reason(of: error))")
            }
        }
        return Written(copied: copied, audioFolder: folder.appendingPathComponent("audio"), leftOut: leftOut)
    }

    /// Writes `document` to `url` privately (see `PrivateFile`) as its text comes, synced to
    /// disk before it is renamed into place.
    static func writePrivately(_ document: Document, to url: URL) throws {
        try PrivateFile.write(to: url) { handle in
            try document.write { try handle.write(contentsOf: Data($0.utf8)) }
            try handle.synchronize()
            return (keep: true, result: ())
        }
    }
}
