import Foundation
import GRDB

/// The job queue of a journal: transcription jobs, their leases, chunks and live pieces,
/// and the recording and transcript writes that finish a job. A view of the journal's own
/// database (the same pool), cheap to make: a caller of the queue sees only the queue.
///
/// Every state change is one SQLite write (or one IMMEDIATE transaction), so any number of
/// workers in any number of processes can share the queue.
public struct JobQueue: Sendable {
    /// The journal's database.
    let pool: any DatabaseWriter
    /// The journal's home (chunk files live under its `tmp/`).
    public let home: DataHome

    init(pool: any DatabaseWriter, home: DataHome) {
        self.pool = pool
        self.home = home
    }

    /// A recording by id: the worker's look-up of a job's file.
    public func recording(id: Int64) throws -> Recording? {
        try pool.read { db in try JournalStore.recording(db, id: id) }
    }

    /// The vocabulary of the journal a recording belongs to (its entry's, or its question's for
    /// an answer), most recent first; empty for a file in no journal.
    public func vocabulary(forRecording id: Int64) throws -> [String] {
        try pool.read { db in try JournalStore.vocabulary(db, forRecording: id) }
    }

    /// Runs `body` in a BEGIN IMMEDIATE transaction (see `DatabaseWriter.immediateWrite`).
    func immediateWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.immediateWrite(body)
    }
}

extension JournalStore {
    /// The journal's job queue, over the same database.
    public var queue: JobQueue { JobQueue(pool: pool, home: home) }
}
