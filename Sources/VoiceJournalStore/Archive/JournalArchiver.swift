import Foundation
import GRDB

/// The journal as a whole, written out and read back: `export --format json` makes a
/// `JournalArchive` of it, `import` reads one into an empty home. A view of the journal's
/// own database (the same pool), cheap to make.
package struct JournalArchiver: Sendable {
    let pool: any DatabaseWriter
    let home: DataHome

    /// Runs `body` in a BEGIN IMMEDIATE transaction (see `DatabaseWriter.immediateWrite`).
    func immediateWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.immediateWrite(body)
    }
}

/// Deleting a journal, question, entry or person with everything that belongs to it,
/// planned (counted and listed) before anything goes. A view of the journal's own database
/// (the same pool), cheap to make.
package struct JournalDeleter: Sendable {
    let pool: any DatabaseWriter
    let home: DataHome

    /// Runs `body` in a BEGIN IMMEDIATE transaction (see `DatabaseWriter.immediateWrite`).
    func immediateWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.immediateWrite(body)
    }
}

extension JournalStore {
    /// Export and import of the whole journal, over the same database.
    package var archiver: JournalArchiver { JournalArchiver(pool: pool, home: home) }

    /// Deletion with everything that belongs to what is deleted, over the same database.
    package var deleter: JournalDeleter { JournalDeleter(pool: pool, home: home) }
}
