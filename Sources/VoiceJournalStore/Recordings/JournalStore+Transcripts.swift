import Foundation
import GRDB

extension JournalStore {
    /// The transcript of a recording, if it has one.
    public func transcript(recordingId: Int64) throws -> Transcript? {
        try pool.read { db in try Transcript.filter(Transcript.Columns.recordingId == recordingId).fetchOne(db) }
    }

    /// A recording by id.
    public func recording(id: Int64) throws -> Recording? {
        try pool.read { db in try Self.recording(db, id: id) }
    }

    /// A recording by id, inside a caller's transaction; a prepared statement, as workers
    /// look up each job's recording.
    static func recording(_ db: Database, id: Int64) throws -> Recording? {
        try Recording.fetchOne(db.cachedStatement(sql: "SELECT * FROM recording WHERE id = ?"), arguments: [id])
    }

    /// Runs `body` in a BEGIN IMMEDIATE transaction (see `DatabaseWriter.immediateWrite`).
    func immediateWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.immediateWrite(body)
    }
}

extension DatabaseWriter {
    /// Runs `body` in a BEGIN IMMEDIATE transaction: it reads and then writes, so it takes
    /// the write lock first and no other process can slip a write in between.
    func immediateWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            guard let result else { throw StoreError.inconsistent("transaction ended without a result") }
            return result
        }
    }
}
