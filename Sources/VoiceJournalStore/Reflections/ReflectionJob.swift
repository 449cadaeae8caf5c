import Foundation
import GRDB

/// A reflection asked for automatically: a job of its own queue, one per entry, due once the
/// entry has words (its transcript has landed, or it was typed). Claimed by one runner at a
/// time through a lease, retried with backoff through `runAfter`, like a transcription job.
public struct ReflectionJob: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "reflection_job"
    public var id: Int64?
    public var entryId: Int64
    public var state: JobState
    public var attempts: Int
    public var maxAttempts: Int
    /// Not claimed before this moment (backoff after a failure that may pass).
    public var runAfter: Date
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var lastError: String?
    /// The chat server the running job was claimed for (shown by `queue status`).
    public var endpoint: String?
    /// The reflection that finished it.
    public var reflectionId: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    /// Tries before a reflection job fails for good.
    public static let defaultMaxAttempts = 6

    public init(entryId: Int64, maxAttempts: Int = ReflectionJob.defaultMaxAttempts, now: Date = Date()) {
        self.entryId = entryId
        state = .queued
        attempts = 0
        self.maxAttempts = maxAttempts
        runAfter = now
        createdAt = now
        updatedAt = now
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The reflection queue in numbers, for `queue status`.
public struct ReflectionJobCounts: Sendable, Equatable, Codable {
    /// Due now or after a backoff, the entry's words there.
    public var queued = 0
    /// Queued, but the entry has no words yet (its transcript has not landed).
    public var waiting = 0
    public var running = 0
    public var done = 0
    public var failed = 0
    public var cancelled = 0
    /// When the earliest claimable job becomes due (nil if none).
    public var nextDue: Date?

    public init() {}

    public var total: Int { queued + waiting + running + done + failed + cancelled }
}
