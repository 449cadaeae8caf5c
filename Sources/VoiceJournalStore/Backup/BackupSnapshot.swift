import VoiceJournalCSearchRank
import Foundation
import GRDB

/// A backup's database snapshot, opened read-only as untrusted input. A crafted database
/// file is more than data: its schema holds SQL that SQLite runs (views, triggers, defaults),
/// so before a row is read the file must be SQLite's, pass `quick_check`, and hold no object
/// (table, index, trigger, view) that voicejournal's own schema does not have. It is read
/// with `trusted_schema` off, cell size checks on and no memory mapping, as SQLite advises
/// for files from elsewhere. Its rows are then checked like an import's, one by one.
struct BackupSnapshot {
    let queue: DatabaseQueue
    /// The migrations the backed-up journal had run.
    let migrations: [String]

    /// The longest text a row of the snapshot may hold, in bytes.
    static let longestValue: Int32 = 256 << 20

    init(_ url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 16) ?? Data()
        try? handle.close()
        guard magic == Data("SQLite format 3\0".utf8) else { throw Self.refusal("its database is not an SQLite database") }
        var config = JournalStore.configuration
        config.readonly = true
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
            // No value longer than any a journal holds (a transcript of a day's speech is a few MB).
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, Self.longestValue)
        }
        do {
            queue = try DatabaseQueue(path: "file:\(JournalStore.uriEscaped(url.path))?immutable=1", configuration: config)
            let expected = try JournalStore.emptyJournal().read(Self.objects)
            migrations = try queue.read { db in
                guard try String.fetchAll(db, sql: "PRAGMA quick_check(1)") == ["ok"] else {
                    throw Self.refusal("its database is damaged (SQLite's quick_check failed)")
                }
                if let stranger = try Self.objects(db).first(where: { expected[$0.key] != $0.value }) {
                    throw Self.refusal("its database holds \(stranger.key.type) \(ArchiveRowCheck.shown(.text(stranger.key.name))), "
                        + "which voicejournal's journal does not have")
                }
                // A generated column is computed as it is read: SQL the file brings, so none is allowed.
                for table in try JournalArchiver.archivedTables(db) {
                    if let computed = try Row.fetchAll(db, sql: "PRAGMA table_xinfo(\(table.quotedDatabaseIdentifier))")
                        .first(where: { [2, 3].contains($0["hidden"] as Int? ?? 0) }) {
                        throw Self.refusal("its table \(table) has a computed column (\(computed["name"] as String? ?? "?")), which voicejournal's does not")
                    }
                }
                return try JournalArchiver.appliedMigrations(db)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.refusal("its database cannot be read (\(error))")
        }
    }

    /// A schema object: its kind and name.
    struct Object: Hashable {
        let type: String
        let name: String
    }

    /// Every object of the schema with the table it belongs to. (Not its SQL: a journal made
    /// long ago and migrated since may spell a table's columns differently from a new one;
    /// the columns themselves are checked row by row.)
    private static func objects(_ db: Database) throws -> [Object: String] {
        var objects: [Object: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master") {
            objects[Object(type: row["type"] ?? "", name: row["name"] ?? "")] = row["tbl_name"] ?? ""
        }
        return objects
    }

    private static func refusal(_ problem: String) -> StoreError {
        StoreError.invalidInput("this backup cannot be restored: \(problem); nothing was restored")
    }
}
