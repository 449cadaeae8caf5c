import Foundation
import GRDB

extension JournalStore {
    /// Reads an archive (`export --format json`) into this journal, which must be empty (no
    /// rows but the "Myself" every new journal has): every row comes back as it was, ids
    /// and times included, in one transaction. The search index is rebuilt by its triggers.
    /// Returns the rows imported per table.
    @discardableResult
    public func importArchive(_ archive: JournalArchive) throws -> [String: Int] {
        guard archive.format == JournalArchive.formatName else {
            throw StoreError.invalidInput("this is not a voicejournal export (its format is \"\(archive.format)\")")
        }
        guard archive.version <= JournalArchive.currentVersion else {
            throw StoreError.invalidInput("this export was made by a newer voicejournal (archive version \(archive.version)); upgrade voicejournal to import it")
        }
        return try immediateWrite { db in
            let applied = try Self.appliedMigrations(db)
            let missing = archive.migrations.filter { !applied.contains($0) }
            guard missing.isEmpty else {
                throw StoreError.invalidInput("this export was made by a newer voicejournal (its journal has "
                    + missing.joined(separator: ", ") + "); upgrade voicejournal to import it")
            }
            let known = try Self.archivedTables(db)
            if let unknown = archive.tables.first(where: { !known.contains($0.name) }) {
                throw StoreError.invalidInput("this export holds a table this voicejournal does not know: \(unknown.name)")
            }
            if let held = try Self.heldRows(db, tables: known) {
                throw StoreError.conflict("the data home \(home.url.path) already holds a journal (\(held)); "
                    + "import into a new, empty one: voicejournal --home NEW_FOLDER import FILE")
            }
            // Rows may refer to rows later in the document (or to each other): the foreign
            // keys are checked once, at commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            // The new journal's own rows ("Myself") give way to the archive's.
            for table in known.reversed() { try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)") }
            var imported: [String: Int] = [:]
            for table in archive.tables {
                let columns = Set(try db.columns(in: table.name).map(\.name))
                for row in table.rows {
                    let names = row.keys.sorted()
                    if let unknown = names.first(where: { !columns.contains($0) }) {
                        throw StoreError.invalidInput("this export has a column this voicejournal does not know: \(table.name).\(unknown)")
                    }
                    let statement = try db.cachedStatement(sql: """
                        INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
                        VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
                        """)
                    try statement.execute(arguments: StatementArguments(names.map { row[$0]?.databaseValue ?? .null }))
                }
                imported[table.name, default: 0] += table.rows.count
            }
            return imported
        }
    }

    /// What a journal that is not empty holds, in words ("3 entries, 1 journal"), or nil when
    /// it holds nothing but "Myself".
    private static func heldRows(_ db: Database, tables: [String]) throws -> String? {
        var held: [String] = []
        for table in tables {
            let sql = table == Person.databaseTableName
                ? "SELECT count(*) FROM person WHERE relationship != 'self'"
                : "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)"
            let count = try Int.fetchOne(db, sql: sql) ?? 0
            if count > 0 { held.append("\(count) \(table) row\(count == 1 ? "" : "s")") }
        }
        return held.isEmpty ? nil : held.joined(separator: ", ")
    }
}
