import Foundation
import VoiceJournalPages
import VoiceJournalStore

/// How a batch ended, file by file, once its run is over: what was transcribed, what failed
/// and why, and which sidecar files could not be written. The command only prints it.
public struct BatchWrapUp: Sendable, Equatable {
    /// A file that failed for good, with the server's or the queue's last word on it.
    public struct Failure: Sendable, Equatable {
        public var url: URL
        public var message: String
    }

    /// A file whose transcript is stored (now or by an earlier run), and where to read it.
    public struct Transcribed: Sendable, Equatable {
        public var url: URL
        public var recordingId: Int64
        /// The voice entry made for it (`--journal`).
        public var entryId: Int64?
        /// The transcript's text, as `entry show` reads it; nil unless asked for (`BatchRequest.keepTexts`,
        /// or a batch of one file).
        public var text: String?
    }

    public var done = 0
    public var failed: [Failure] = []
    /// The files done, in the batch's order.
    public var transcribed: [Transcribed] = []
    /// Files whose transcript is stored but whose sidecars could not be written.
    public var sidecarProblems: [Failure] = []

    /// Reads each queued file's job as it stands now and writes the sidecars of the done ones
    /// (with their texts when `texts`). Jobs still queued (an interrupted or `--no-wait` run)
    /// count as neither.
    package static func make(_ queued: [QueuedFile], store: JournalStore, sidecars: [SidecarFormat], texts: Bool) throws -> BatchWrapUp {
        var wrapUp = BatchWrapUp()
        let jobs = try store.queue.jobs(ids: queued.map(\.outcome.jobId))
        for file in queued {
            guard let job = jobs[file.outcome.jobId] else { continue }
            switch job.state {
            case .done:
                wrapUp.done += 1
                let recording = file.outcome.recordingId
                let text = texts ? try store.transcript(recordingId: recording).map { TranscriptReading.text($0) } : nil
                wrapUp.transcribed.append(Transcribed(url: file.url, recordingId: recording, entryId: file.outcome.entryId,
                                                      text: text?.trimmingCharacters(in: .whitespacesAndNewlines)))
                if !sidecars.isEmpty, let problem = try writeSidecars(sidecars, for: file, store: store) {
                    wrapUp.sidecarProblems.append(Failure(url: file.url, message: problem))
                }
            case .failed:
                wrapUp.failed.append(Failure(url: file.url, message: job.lastError ?? "unknown error"))
            default:
                break
            }
        }
        return wrapUp
    }

    /// Writes the sidecars from the stored transcript; the reason when they could not be written.
    private static func writeSidecars(_ formats: [SidecarFormat], for file: QueuedFile, store: JournalStore) throws -> String? {
        guard let transcript = try store.transcript(recordingId: file.outcome.recordingId) else { return nil }
        let duration = try store.recording(id: file.outcome.recordingId)?.durationSeconds ?? 0
        do {
            try Sidecar.write(formats, for: file.url, transcript: transcript, durationSeconds: duration)
            return nil
        } catch {
            return error.localizedDescription
        }
    }
}
