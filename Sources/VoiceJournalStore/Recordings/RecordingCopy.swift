import Foundation
import VoiceJournalSystem

/// A recording's audio copied out of the journal (`export --with-audio`), only while the file
/// at its path still is that recording: a regular file of the size and SHA-256 its row holds.
///
/// A path is only a name: the file may have been replaced since it was recorded, and a row
/// from an imported export may name any file at all (a key, a password store). Copying what
/// a path names into a folder made for sharing would hand such a file on, so a file that is
/// not the recording is left out and said to be.
package enum RecordingCopy {
    /// Why the file at a recording's path is not that recording, in words; nil when it is.
    /// Reads the whole file (its SHA-256).
    package static func problem(_ recording: Recording) -> String? {
        do {
            return try withSource(recording) { source, _ in
                let digest = try ContentDigest.sha256(of: source)
                return digest == recording.sha256 ? nil : differs
            }
        } catch let error as Refusal {
            return error.reason
        } catch {
            return "it cannot be read (\(String(describing: error)))"
        }
    }

    /// Copies the recording's file to `target` (mode 0600, through a temporary file beside
    /// it), checking size and SHA-256 on the bytes copied: what lands at `target` is the
    /// recording or nothing. Returns why it was left out, or nil when it was copied.
    package static func copy(_ recording: Recording, to target: URL) throws -> String? {
        do {
            return try withSource(recording) { source, _ in
                try PrivateFile.write(to: target) { output in
                    let digest = try ContentDigest.sha256(of: source) { block in try output.write(contentsOf: block) }
                    return digest == recording.sha256 ? (keep: true, result: nil) : (keep: false, result: differs)
                }
            }
        } catch let error as Refusal {
            return error.reason
        }
    }

    private static let differs = "its content is not the recording's any more (another SHA-256)"

    private struct Refusal: Error {
        let reason: String
    }

    /// Opens the recording's file for reading after the checks that need no reading: a
    /// finished recording, a regular file, the size its row holds.
    private static func withSource<Result>(_ recording: Recording,
                                           _ body: (FileHandle, stat) throws -> Result) throws -> Result {
        guard recording.sha256 != nil else { throw Refusal(reason: "it is still being recorded") }
        let descriptor = open(recording.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw Refusal(reason: errno == ENOENT ? "the file is not there any more" : "it cannot be opened (\(SystemError.text()))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Refusal(reason: "it cannot be read (\(SystemError.text()))") }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { throw Refusal(reason: "it is not a regular file") }
        guard Int64(status.st_size) == recording.sizeBytes else {
            throw Refusal(reason: "its size is not the recording's any more (\(status.st_size) bytes, not \(recording.sizeBytes))")
        }
        return try body(handle, status)
    }
}
