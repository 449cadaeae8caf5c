import Foundation
import VoiceJournalStore

/// How a batch ended, file by file, once its run is over: what was transcribed, what failed
/// and why, and which sidecar files could not be written. The command only prints it.
public struct BatchWrapUp: Sendable, Equatable {
    /// A file that failed for good, with the server's or the queue's last word on it.
    public struct Failure: Sendable, Equatable {
        public var url: URL
        public var message: String
    }

    public var done = 0
    public var failed: [Failure] = []
    /// Files whose transcript is stored but whose sidecars could not be written.
    public var sidecarProblems: [Failure] = []

    /// Reads each queued file's job as it stands now and writes the sidecars of the done ones.
    /// Jobs still queued (an interrupted or `--no-wait` run) count as neither.
    package static func make(_ queued: [QueuedFile], store: JournalStore, sidecars: [SidecarFormat]) throws -> BatchWrapUp {
        var wrapUp = BatchWrapUp()
        let jobs = try store.queue.jobs(ids: queued.map(\.outcome.jobId))
        for file in queued {
            guard let job = jobs[file.outcome.jobId] else { continue }
            switch job.state {
            case .done:
                wrapUp.done += 1
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
