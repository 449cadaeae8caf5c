import Foundation
import GRDB

extension JournalArchiver {
    /// Reads an archive (`export --format json`) into this journal, which must be empty
    /// (see `importRows`). Returns the rows imported per table.
    @discardableResult
    package func importArchive(_ archive: JournalArchive) throws -> [String: Int] {
        guard archive.format == JournalArchive.formatName else {
            throw StoreError.invalidInput("this is not a voicejournal export (its format is \"\(archive.format)\")")
        }
        guard archive.version <= JournalArchive.currentVersion else {
            throw StoreError.invalidInput("this export was made by a newer voicejournal (archive version \(archive.version)); upgrade voicejournal to import it")
        }
        return try importRows(migrations: archive.migrations, tables: archive.tables.map(\.name), from: .export) { insert in
            for table in archive.tables {
                for row in table.rows { try insert(table.name, row) }
            }
        }
    }

    /// Writes the rows `rows` hands to its `insert` into this journal, which must be empty
    /// (no rows but the "Myself" every new journal has), in one transaction: each checked and
    /// written as it was, ids and times included; the search index is rebuilt by its
    /// triggers. `migrations` are those the rows' journal had run: it needs them all.
    /// Returns the rows written per table.
    /// `tables`, when known beforehand, are checked first: a table this journal does not know
    /// is refused even when it holds no row.
    func importRows(migrations: [String], tables: [String] = [], from source: ArchiveSource,
                    _ rows: (_ insert: (String, [String: JournalArchive.Value]) throws -> Void) throws -> Void) throws -> [String: Int] {
        try immediateWrite { db in
            let known = try Self.checkMigrations(migrations, db, source: source)
            if let unknown = tables.first(where: { !known.contains($0) }) {
                throw StoreError.invalidInput("this \(source.noun) holds a table this voicejournal does not know: \(unknown)")
            }
            try checkEmpty(db, tables: known, for: source)
            // Rows may refer to rows later in the document (or to each other): the foreign
            // keys are checked once, at commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            // The new journal's own rows ("Myself") give way to the archive's.
            for table in known.reversed() { try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)") }
            var writer = ArchiveRowWriter(db, home: home, source: source, tables: known)
            try rows { table, row in try writer.insert(row, into: table) }
            try writer.checkReferences()
            // An email is sent at most once unless the user asks again: one an archive holds
            // as still to send (a crafted one, or a backup older than its sending) is not
            // sent by this journal on its own.
            try db.execute(sql: """
                UPDATE delivery SET state = 'cancelled', leaseOwner = NULL, leaseExpiresAt = NULL,
                    reply = 'came with an import or a restore: not sent from this journal (assignment send --again sends it)'
                WHERE state IN ('queued', 'sending')
                """)
            return writer.counts
        }
    }

    /// The tables this journal has, once it is clear that it has run every migration the
    /// rows' journal had.
    static func checkMigrations(_ migrations: [String], _ db: Database, source: ArchiveSource) throws -> [String] {
        let applied = try appliedMigrations(db)
        let missing = migrations.filter { !applied.contains($0) }
        guard missing.isEmpty else {
            throw StoreError.invalidInput("this \(source.noun) was made by a newer voicejournal (its journal has "
                + missing.joined(separator: ", ") + "); upgrade voicejournal to \(source.verb) it")
        }
        return try archivedTables(db)
    }

    /// What a journal that is not empty holds, in words ("3 entries, 1 journal"), or nil when
    /// it holds nothing but "Myself" and nudges: a timer's `nudge` makes the journal it finds
    /// missing and records the nudge, and that home is still a new one to import into.
    static func heldRows(_ db: Database, tables: [String]) throws -> String? {
        var held: [String] = []
        for table in tables where table != Nudge.databaseTableName {
            let sql = table == Person.databaseTableName
                ? "SELECT count(*) FROM person WHERE relationship != 'self'"
                : "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)"
            let count = try Int.fetchOne(db, sql: sql) ?? 0
            if count > 0 { held.append("\(count) \(table) row\(count == 1 ? "" : "s")") }
        }
        return held.isEmpty ? nil : held.joined(separator: ", ")
    }
}
