import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// `queue status --json`: the counts, and each running job with its endpoint.
package struct QueueStatusJSON: Encodable, Sendable {
    let counts: QueueCounts
    let runningJobs: [RunningJob]
    /// The reflection queue's jobs, when it has any.
    let reflections: ReflectionJobCounts?

    package init(counts: QueueCounts, runningJobs: [RunningJob], reflections: ReflectionJobCounts? = nil) {
        self.counts = counts
        self.runningJobs = runningJobs
        self.reflections = reflections
    }

    private enum Keys: String, CodingKey { case runningJobs, reflections }

    package func encode(to encoder: Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(runningJobs, forKey: .runningJobs)
        try container.encodeIfPresent(reflections, forKey: .reflections)
    }
}

extension QueueStatusJSON {
    /// The status of `queue`: its counts, and its running jobs when any run.
    package init(of queue: JobQueue) throws {
        let counts = try queue.queueCounts()
        self.init(counts: counts, runningJobs: counts.running > 0 ? try queue.runningJobs() : [])
    }

    /// The status of the journal's queues: transcriptions, and reflections when there are any.
    package init(of store: JournalStore) throws {
        let transcriptions = try Self(of: store.queue)
        let reflections = try store.reflectionJobCounts()
        self.init(counts: transcriptions.counts, runningJobs: transcriptions.runningJobs, reflections: reflections.total > 0 ? reflections : nil)
    }

    /// What `queue status` prints without `--json` (see `QueueText.status`).
    package var text: String {
        let transcriptions = QueueText.status(queued: counts.queued, running: counts.running, done: counts.done, failed: counts.failed,
                                              cancelled: counts.cancelled, runningJobs: runningJobs.map { ($0.jobId, $0.path, $0.chunk, $0.endpoint) },
                                              nextDueIn: counts.nextDue?.timeIntervalSinceNow)
        guard let reflections else { return transcriptions }
        let parts = [(reflections.queued, "queued"), (reflections.waiting, "waiting for transcripts"), (reflections.running, "running"),
                     (reflections.done, "done"), (reflections.failed, "failed"), (reflections.cancelled, "cancelled")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return transcriptions + "\nReflections: " + parts.joined(separator: ", ")
    }
}

/// A job as `queue list --json` shows it.
package struct JobJSON: Encodable, Sendable {
    let id: Int64?
    let state: String
    let priority: Int
    let attempts: Int
    let maxAttempts: Int
    let path: String
    let durationSeconds: Double
    let lastError: String?
    let runAfter: Date
    let updatedAt: Date
    /// Only for a recording waiting for its chunks.
    let chunksDone: Int?
    let chunksTotal: Int?

    package init(_ listing: JobListing) {
        id = listing.job.id
        state = listing.job.state.rawValue
        priority = listing.job.priority
        attempts = listing.job.attempts
        maxAttempts = listing.job.maxAttempts
        path = listing.path
        durationSeconds = listing.durationSeconds
        lastError = listing.job.lastError
        runAfter = listing.job.runAfter
        updatedAt = listing.job.updatedAt
        chunksDone = listing.chunksDone
        chunksTotal = listing.chunksTotal
    }
}
