import Foundation
import GRDB

extension JournalStore {
    /// The entries whose valid reflections best match the FTS5 `pattern` (what a reflection
    /// said of them: its summary, insight, themes, questions), within `filter`, best first,
    /// each once.
    public func entriesByReflection(matching pattern: String, filter: EntryFilter = EntryFilter(), limit: Int = 16) throws -> [Int64] {
        guard !pattern.isEmpty, limit > 0 else { return [] }
        let (conditions, arguments) = filter.conditions()
        let extra = conditions.isEmpty ? "" : " AND " + conditions.joined(separator: " AND ")
        return try pool.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT e.id FROM reflection_index
                JOIN reflection r ON r.id = reflection_index.rowid
                JOIN entry e ON e.id = r.entryId JOIN journal j ON j.id = e.journalId
                WHERE reflection_index MATCH ?\(extra)
                GROUP BY e.id ORDER BY min(reflection_index.rank) LIMIT ?
                """, arguments: [pattern] + arguments + [limit])
        }
    }
}
