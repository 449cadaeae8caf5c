import Foundation
import GRDB

extension JobQueue {
    /// Queues a transcription of the recording, once: queueing it again returns the job
    /// already there (whatever its state), so a retried `record` or `transcribe` never doubles work.
    @discardableResult
    public func enqueueTranscription(recordingId: Int64, priority: Int, maxAttempts: Int = 6, now: Date = Date()) throws -> Job {
        try pool.write { db in try Self.enqueueTranscription(db, recordingId: recordingId, priority: priority, maxAttempts: maxAttempts, now: now) }
    }

    /// The same, inside a caller's transaction (so a recording row and its job land together).
    public static func enqueueTranscription(_ db: Database, recordingId: Int64, priority: Int, maxAttempts: Int = 6, now: Date = Date()) throws -> Job {
        if let existing = try Job.fetchOne(db.cachedStatement(sql: "SELECT * FROM job WHERE recordingId = ? AND kind = ?"),
                                           arguments: [recordingId, Job.transcribeKind]) {
            return existing
        }
        var job = Job(recordingId: recordingId, priority: priority, maxAttempts: maxAttempts,
                      runAfter: now, createdAt: now, updatedAt: now)
        try job.insert(db)
        return job
    }
}
