import Foundation
import GRDB

extension JournalStore {
    /// Numbers a counting question ("how often was I anxious in October?") is answered with,
    /// counted by SQL over the entries `filter` keeps — never by a model reading passages:
    /// how many entries, the moods and themes set and how often, the minutes spoken.
    public func askFacts(_ filter: EntryFilter) throws -> [String] {
        let (conditions, arguments) = filter.conditions()
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.mood AS mood, e.theme AS theme,
                       (SELECT sum(r.durationSeconds) FROM recording r WHERE r.entryId = e.id) AS seconds
                FROM entry e JOIN journal j ON j.id = e.journalId \(whereClause)
                """, arguments: arguments)
            var facts = ["\(rows.count) \(rows.count == 1 ? "entry" : "entries") in the period asked about"]
            func tally(_ column: String) -> String? {
                var counts: [String: Int] = [:]
                for row in rows { if let value: String = row[column] { counts[value, default: 0] += 1 } }
                guard !counts.isEmpty else { return nil }
                return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { "\($0.key) \($0.value) \($0.value == 1 ? "time" : "times")" }.joined(separator: ", ")
            }
            if let moods = tally("mood") { facts.append("moods set on those entries: " + moods) }
            if let themes = tally("theme") { facts.append("themes set on those entries: " + themes) }
            let seconds = rows.reduce(0.0) { $0 + ((($1["seconds"] as Double?) ?? 0)) }
            if seconds > 0 { facts.append(String(format: "%.0f minutes spoken", (seconds / 60).rounded())) }
            return facts
        }
    }
}
