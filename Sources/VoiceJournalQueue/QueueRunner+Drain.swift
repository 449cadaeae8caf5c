import Foundation
import VoiceJournalStore
import VoiceJournalSystem

extension QueueRunner {
    /// What a run that drained the queue did, for `queue run`'s summary and `--json`.
    public struct Drained: Sendable {
        /// Jobs unfinished when the run started.
        public var pending: Int
        public var summary: Summary
        /// The jobs that failed for good in the run, with their files and last errors.
        public var failures: [JobListing]
        public var seconds: Double
    }

    /// Works until nothing is queued (see `run(until: .drainQueue)`): `starting` is told how
    /// many jobs are unfinished before the first is claimed, `onEvent` what happens as it goes.
    /// The queue's reads run on a thread of their own, never on the cooperative pool.
    public func drainQueue(starting: (Int) -> Void, onEvent: @escaping @Sendable (Event) -> Void) async throws -> Drained {
        let queue = queue
        let pending = try await onThread { try queue.unfinishedJobCount() }
        starting(pending)
        let started = ProcessInfo.processInfo.systemUptime
        let summary = try await run(until: .drainQueue, onEvent: onEvent)
        let seconds = ProcessInfo.processInfo.systemUptime - started
        let failed = summary.failedJobs
        let failures = failed.isEmpty ? [] : try await onThread { try queue.listJobs(state: .failed, ids: failed) }
        return Drained(pending: pending, summary: summary, failures: failures, seconds: seconds)
    }
}
