import VoiceJournalAudio
import Foundation
import VoiceJournalStore

/// A stored transcript belongs to the audio that was in the file when it was uploaded: the
/// file is checked against its recording's stamp (size, modification time) before the
/// upload and again after it.
extension Worker {
    /// What the check before an upload decided.
    enum FileCheck {
        /// Upload; compare with this stamp afterwards (nil: the file cannot be read, and the
        /// upload will say so).
        case upload(FileStamp?)
        /// The job was failed (the file now holds audio another recording has), or is gone
        /// with its deleted recording.
        case failed
    }

    /// Makes sure the file still holds the audio its recording was keyed on. When the stamp
    /// differs the file is hashed again: the same digest only refreshes the stamp; new audio
    /// re-keys the recording (so it is stored, and later deduplicated, as what it is now),
    /// unless another recording already holds that audio, which fails the job.
    func checkFile(of recording: Recording, jobId: Int64) throws -> FileCheck {
        guard let recordingId = recording.id, let now = FileStamp.current(path: recording.path) else { return .upload(nil) }
        if recording.fileStamp == now { return .upload(now) }
        let url = URL(fileURLWithPath: recording.path)
        guard let sha256 = try? ContentDigest.sha256(fileAt: url) else { return .upload(nil) }
        if sha256 == recording.sha256 {
            try queue.updateFileStamp(recordingId: recordingId, stamp: now)
            return .upload(now)
        }
        let info = try? AudioIntegrity.probe(url)
        let changed = ChangedAudio(sha256: sha256, stamp: now, durationSeconds: info?.durationSeconds,
                                   sampleRate: info?.sampleRate, channels: info?.channels)
        let holder: Int64?
        do {
            holder = try queue.rekeyRecording(id: recordingId, to: changed)
        } catch let error as StoreError where error.kind == .notFound {
            // Deleted while its job was held: the job went with it, there is nothing to queue.
            return .failed
        }
        if let holder {
            try fail(jobId: jobId, path: recording.path, message:
                "the file changed after it was queued and now holds audio already in the journal (recording \(holder))")
            return .failed
        }
        runner.logger.info("the file changed after it was queued; recording re-keyed", metadata: [
            "recording": "\(recordingId)", "was": "\(recording.sha256 ?? "-")", "now": "\(sha256)"])
        return .upload(now)
    }

    /// After an upload: when the file changed while it was sent, the answer may be of
    /// neither version, so it is not stored; the job is tried again (and checked again).
    /// Returns true when that happened.
    func fileChangedDuringUpload(_ recording: Recording, since stamp: FileStamp?, job: Job, jobId: Int64) throws -> Bool {
        guard let stamp, FileStamp.current(path: recording.path) != stamp else { return false }
        let delay = runner.options.retry.delay(afterAttempt: job.attempts, serverWait: nil)
        runner.logger.info("the file changed while it was uploaded; trying again", metadata: ["job": "\(jobId)"])
        if try queue.failJob(id: jobId, owner: owner, error: "the file changed while it was being uploaded",
                             retryAt: Date().addingTimeInterval(delay))?.state == .queued {
            run.summary.withLock { $0.retried += 1 }
        }
        return true
    }
}
