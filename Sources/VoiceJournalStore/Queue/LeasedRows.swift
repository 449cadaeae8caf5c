import Foundation
import GRDB

/// A lease's life on a row of a leased table, the same for the transcription queue (`job`)
/// and the reflection queue (`reflection_job`): renewed by its owner, ended when the owner is
/// known to be dead, put back after a failed attempt, or handed back untouched. Each step is
/// one statement inside the caller's transaction; the table is the record type's.
enum LeasedRows {
    /// The owners of the running rows, so a runner can find owners that are gone.
    static func owners<Record: TableRecord>(_ db: Database, of _: Record.Type) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: """
            SELECT DISTINCT leaseOwner FROM \(Record.databaseTableName) WHERE state = 'running' AND leaseOwner IS NOT NULL
            """))
    }

    /// Ends the leases `owners` hold now; returns how many rows became due.
    static func expire<Record: TableRecord>(_ db: Database, _: Record.Type, of owners: Set<String>, now: Date) throws -> Int {
        var expired = 0
        for owner in owners {
            try db.execute(sql: """
                UPDATE \(Record.databaseTableName) SET leaseExpiresAt = ? WHERE state = 'running' AND leaseOwner = ? AND leaseExpiresAt > ?
                """, arguments: [now.addingTimeInterval(-0.001), owner, now])
            expired += db.changesCount
        }
        return expired
    }

    /// Extends the leases of every row `owner` is running (never past `JobQueue.longestLease`);
    /// returns how many it still holds.
    static func renew<Record: TableRecord>(_ db: Database, _: Record.Type, owner: String, lease: TimeInterval, now: Date) throws -> Int {
        try db.execute(sql: """
            UPDATE \(Record.databaseTableName) SET leaseExpiresAt = ?, updatedAt = ? WHERE state = 'running' AND leaseOwner = ?
            """, arguments: [now.addingTimeInterval(min(lease, JobQueue.longestLease)), now, owner])
        return db.changesCount
    }

    /// A failed attempt: queued again until `retryAt`, or failed for good when the row has
    /// used its attempts (or `retryAt` is nil). Returns the row as it now stands; nil if
    /// `owner` no longer holds it.
    static func fail<Record: FetchableRecord & TableRecord>(_ db: Database, _: Record.Type, id: Int64, owner: String, error: String,
                                                            retryAt: Date?, now: Date) throws -> Record? {
        try Record.fetchOne(db, sql: """
            UPDATE \(Record.databaseTableName) SET
                state = CASE WHEN :retryAt IS NOT NULL AND attempts < maxAttempts THEN 'queued' ELSE 'failed' END,
                runAfter = coalesce(:retryAt, runAfter), lastError = :error,
                leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = :now
            WHERE id = :id AND state = 'running' AND leaseOwner = :owner
            RETURNING *
            """, arguments: ["retryAt": retryAt, "error": error, "now": now, "id": id, "owner": owner])
    }

    /// Hands a claimed row back untouched: queued, due now, and the attempt does not count.
    static func release<Record: TableRecord>(_ db: Database, _: Record.Type, id: Int64, owner: String, note: String?, now: Date) throws {
        try db.execute(sql: """
            UPDATE \(Record.databaseTableName) SET state = 'queued', attempts = max(0, attempts - 1), runAfter = :now,
                lastError = coalesce(:note, lastError), leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = :now
            WHERE id = :id AND state = 'running' AND leaseOwner = :owner
            """, arguments: ["now": now, "note": note, "id": id, "owner": owner])
    }
}
