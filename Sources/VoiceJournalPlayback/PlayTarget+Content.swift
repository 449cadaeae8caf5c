import VoiceJournalAudio
import Foundation
import VoiceJournalStore

extension PlayTarget {
    /// What a stored recording's file held when it was stored: its digest and the size and
    /// time it had then. Playing it under its transcript is right only while it still holds that.
    package struct StoredContent: Sendable, Equatable {
        package var sha256: String?
        package var stamp: FileStamp?

        package init(sha256: String?, stamp: FileStamp?) {
            self.sha256 = sha256
            self.stamp = stamp
        }
    }

    /// Checks that a stored recording's file still holds the audio that was stored (as the
    /// queue checks before an upload): the same size and time, else the same SHA-256. A file
    /// replaced in place (another WAV at the same path) would play under another recording's
    /// transcript and times. A recording still being recorded, a file given by path, and a
    /// path that is no regular file (the player says what it is) are not checked.
    package func checkContent() throws {
        guard let content, !isBeingRecorded, let status = try? FileStatus.of(url.path), status.kind == .regular,
              FileStamp.current(path: url.path) != content.stamp, let sha256 = content.sha256 else { return }
        // The stamp differs (touched, copied back, replaced): the bytes decide.
        guard (try? ContentDigest.sha256(fileAt: url)) != sha256 else { return }
        let which = recordingId.map { "recording #\($0)" } ?? "the recording"
        throw PlayTargetError(.changedFile, "\(url.path) no longer holds the audio of \(which): the file changed on disk after it "
            + "was stored, so its transcript and times belong to other audio; to hear what it holds now, play the file by its path")
    }
}
