import Foundation
import GRDB

extension JournalArchiver {
    /// Reads an archive (`export --format json`) into this journal, which must be empty (no
    /// rows but the "Myself" every new journal has): every row comes back as it was, ids
    /// and times included, in one transaction. The search index is rebuilt by its triggers.
    /// Returns the rows imported per table.
    @discardableResult
    package func importArchive(_ archive: JournalArchive) throws -> [String: Int] {
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
            let check = ArchiveRowCheck(files: HomeFiles(home))
            for table in archive.tables {
                let schema = try db.columns(in: table.name).map { column in
                    ArchiveRowCheck.Column(name: column.name, type: column.type.uppercased(),
                                           isRequired: column.isNotNull && column.defaultValueSQL == nil)
                }
                let columns = Set(schema.map(\.name))
                for (index, row) in table.rows.enumerated() {
                    let names = row.keys.sorted()
                    if let unknown = names.first(where: { !columns.contains($0) }) {
                        throw StoreError.invalidInput("this export has a column this voicejournal does not know: \(table.name).\(unknown)")
                    }
                    try check.check(row, of: table.name, index: index, columns: schema)
                    let statement = try db.cachedStatement(sql: """
                        INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
                        VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
                        """)
                    do {
                        try statement.execute(arguments: StatementArguments(names.map { row[$0]?.databaseValue ?? .null }))
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw Self.clash(error, item: ArchiveRowCheck.item(row, of: table.name, index: index))
                    }
                }
                imported[table.name, default: 0] += table.rows.count
            }
            if let violation = try db.foreignKeyViolations().next() {
                throw StoreError.invalidInput("this export cannot be imported: \(violation.originTable) #\(violation.originRowID.map(String.init) ?? "?") "
                    + "refers to a \(violation.destinationTable) the export does not hold; nothing was imported")
            }
            return imported
        }
    }

    /// A row the database refused as a duplicate (or against another of its rules), in one line.
    private static func clash(_ error: DatabaseError, item: String) -> StoreError {
        // SQLite's message names the columns ("UNIQUE constraint failed: entry.id"): shown, not read.
        let columns = (error.message ?? "").split(separator: ":", maxSplits: 1).dropFirst().first
            .map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
        let problem = switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_PRIMARYKEY, .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_ROWID:
            "repeats a value another row of the export has\(columns)"
        default:
            "breaks a rule of the journal's tables\(columns)"
        }
        return StoreError.invalidInput("this export cannot be imported: \(item) \(problem); nothing was imported")
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
