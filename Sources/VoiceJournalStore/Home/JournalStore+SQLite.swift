import GRDB

extension JournalStore {
    /// The SQLite library's version, e.g. "3.40.1".
    package func sqliteVersion() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "" }
    }

    /// Whether SQLite was built with FTS5, which search needs.
    package func sqliteHasFTS5() throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('ENABLE_FTS5')") ?? false }
    }
}
