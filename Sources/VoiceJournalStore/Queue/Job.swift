import Foundation
import GRDB

/// A unit of queued work on a recording (today: transcribing it). Claimed by one worker at a
/// time through a lease; retried with backoff through `runAfter`.
public struct Job: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job"
    public var id: Int64?
    public var recordingId: Int64
    public var kind: String
    public var state: JobState
    /// Higher runs first: live recordings outrank batch files.
    public var priority: Int
    public var attempts: Int
    public var maxAttempts: Int
    /// Not claimed before this moment (backoff after a retryable failure).
    public var runAfter: Date
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date

    /// The kind of job that uploads a recording for transcription.
    public static let transcribeKind = "transcribe"
    /// The kinds of chunk jobs begin with this (`transcribe-chunk-3`).
    static let chunkKindPrefix = "\(transcribeKind)-chunk-"

    /// Whether this job uploads one chunk of a long recording (known from its kind alone, so
    /// a worker need not look up `job_chunk` for the thousands of ordinary jobs).
    public var isChunk: Bool { kind.hasPrefix(Self.chunkKindPrefix) }
    /// Priority of a recording made with `record` or `answer`.
    public static let livePriority = 10
    /// Priority of a file found by `transcribe`.
    public static let batchPriority = 0

    public init(id: Int64? = nil, recordingId: Int64, kind: String = Job.transcribeKind, state: JobState = .queued,
                priority: Int = Job.batchPriority, attempts: Int = 0, maxAttempts: Int = 6, runAfter: Date = Date(),
                leaseOwner: String? = nil, leaseExpiresAt: Date? = nil, lastError: String? = nil,
                createdAt: Date = Date(), updatedAt: Date = Date()) {
        self.id = id
        self.recordingId = recordingId
        self.kind = kind
        self.state = state
        self.priority = priority
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.runAfter = runAfter
        self.leaseOwner = leaseOwner
        self.leaseExpiresAt = leaseExpiresAt
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Read column by column rather than through `Decodable`'s keyed containers: a job is
    /// read at every claim (`RETURNING *`), and a batch's whole list at its end.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        recordingId = try row.decode(forColumn: "recordingId")
        kind = try row.decode(forColumn: "kind")
        state = try row.decode(forColumn: "state")
        priority = try row.decode(forColumn: "priority")
        attempts = try row.decode(forColumn: "attempts")
        maxAttempts = try row.decode(forColumn: "maxAttempts")
        runAfter = try row.decode(forColumn: "runAfter")
        leaseOwner = try row.decode(forColumn: "leaseOwner")
        leaseExpiresAt = try row.decode(forColumn: "leaseExpiresAt")
        lastError = try row.decode(forColumn: "lastError")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Ends the job's lease and puts it in `state` (saved by the caller); `done` also clears
    /// the last error.
    mutating func release(to state: JobState, now: Date) {
        self.state = state
        leaseOwner = nil
        leaseExpiresAt = nil
        if state == .done { lastError = nil }
        updatedAt = now
    }
}
