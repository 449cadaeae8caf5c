import Foundation
import GRDB

extension JournalStore {
    /// Keeps `reflection` (a new row: reflections are history) and returns it with its id.
    public func addReflection(_ reflection: StoredReflection) throws -> StoredReflection {
        try pool.write { db in
            var row = reflection
            if let entryId = row.entryId, try Entry.fetchOne(db, key: entryId) == nil {
                throw StoreError.notFound("no entry \(entryId) (deleted meanwhile?)")
            }
            try row.insert(db)
            return row
        }
    }

    /// The entry's latest reflection, valid or failed; nil when it has none.
    public func latestReflection(entryId: Int64) throws -> StoredReflection? {
        try pool.read { db in
            try StoredReflection.filter(sql: "entryId = ?", arguments: [entryId])
                .order(sql: "createdAt DESC, id DESC").fetchOne(db)
        }
    }

    /// The latest reflection on a week or a month (`kind`) starting at `start`, valid or
    /// failed, over the journal named `journal` (nil: every journal's entries); nil when none
    /// was asked for. Which journal it covered is in its fields (`journal`): the table has
    /// no column for it.
    public func latestPeriodReflection(kind: StoredReflection.PeriodKind, start: Date, journal: String?) throws -> StoredReflection? {
        try pool.read { db in
            try StoredReflection.filter(sql: """
                entryId IS NULL AND periodKind = ? AND periodStart = ?
                AND (CASE WHEN json_valid(fields) THEN json_extract(fields, '$.journal') END) IS ?
                """, arguments: [kind, start, journal])
                .order(sql: "createdAt DESC, id DESC").fetchOne(db)
        }
    }

    /// Every reflection of the entry, oldest first.
    public func reflections(entryId: Int64) throws -> [StoredReflection] {
        try pool.read { db in
            try StoredReflection.filter(sql: "entryId = ?", arguments: [entryId]).order(sql: "createdAt, id").fetchAll(db)
        }
    }

}

extension JournalStats {
    /// Sums the reflections' tokens and cost: every reflection, or those on one journal's entries.
    mutating func addReflections(_ db: Database, journalName: String?) throws {
        var sql = """
            SELECT count(*) AS n, coalesce(sum(r.inputTokens), 0) AS i, coalesce(sum(r.outputTokens), 0) AS o,
                   coalesce(sum(r.cost), 0) AS c, count(*) - count(r.cost) AS u FROM reflection r
            """
        var arguments: StatementArguments = []
        if let journalName {
            sql += " JOIN entry e ON e.id = r.entryId JOIN journal j ON j.id = e.journalId WHERE j.name = ?"
            arguments = [journalName]
        }
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return }
        (reflections, reflectionInputTokens, reflectionOutputTokens) = (row["n"], row["i"], row["o"])
        (reflectionCost, reflectionsUnpriced) = (row["c"], row["u"])
    }
}

extension JournalStore {
    /// Sets the entry's mood and theme to these where it has none (`reflect --apply`): a
    /// suggestion never overwrites what the user set. Returns what was set.
    public func applySuggestion(entryId: Int64, mood: Mood?, theme: Theme?) throws -> (mood: Mood?, theme: Theme?) {
        try pool.write { db in
            guard var entry = try Entry.fetchOne(db, key: entryId) else { throw StoreError.notFound("no entry \(entryId)") }
            let setMood = entry.mood == nil ? mood : nil, setTheme = entry.theme == nil ? theme : nil
            guard setMood != nil || setTheme != nil else { return (nil, nil) }
            entry.mood = entry.mood ?? setMood
            entry.theme = entry.theme ?? setTheme
            try entry.update(db)
            return (setMood, setTheme)
        }
    }
}
