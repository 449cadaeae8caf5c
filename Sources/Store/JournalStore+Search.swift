import Foundation
import GRDB

/// One search result: the entry (or answered assignment) whose text or transcript matched.
public struct SearchHit: Codable, Sendable, Equatable, FetchableRecord {
    /// The matching entry; nil for an assignment answer (then `assignmentId` is set).
    public var entryId: Int64?
    public var assignmentId: Int64?
    public var journal: String?
    public var title: String?
    public var mood: Mood?
    public var createdAt: Date
    /// Where the words matched: `entry` (title or text) or `transcript`.
    public var matchedIn: String
    /// A few words around the match, the matched words in [brackets].
    public var snippet: String
    /// bm25 score: lower is a better match.
    public var rank: Double
}

extension JournalStore {
    /// Full-text search over entry titles, entry text and transcripts, best match first.
    /// Every word of the query must appear (in any order; "porter" stemming, so
    /// "walking" finds "walked"). Filters narrow to entries of a journal, mood or period.
    public func search(_ query: String, filter: EntryFilter = EntryFilter(), limit: Int = 20) throws -> [SearchHit] {
        guard let pattern = FTS5Pattern(matchingAllTokensIn: query) else {
            throw StoreError.invalidInput("search needs at least one word")
        }
        return try pool.read { db in
            if let journal = filter.journal { _ = try Self.journal(db, named: journal) }
            var (conditions, arguments) = filter.conditions()
            // An assignment answer has no entry: it passes only when no entry filter is set.
            conditions = conditions.map { "(e.id IS NOT NULL AND \($0))" }
            let sql = """
                SELECT e.id AS entryId, CASE WHEN e.id IS NULL THEN r.assignmentId END AS assignmentId,
                       coalesce(j.name, qj.name) AS journal,
                       coalesce(e.title, q.text) AS title, e.mood,
                       coalesce(e.createdAt, t.createdAt) AS createdAt,
                       s.ownerKind AS matchedIn,
                       snippet(search_index, -1, '[', ']', '…', 12) AS snippet,
                       bm25(search_index) AS rank
                FROM search_index s
                LEFT JOIN transcript t ON s.ownerKind = 'transcript' AND t.id = s.ownerId
                LEFT JOIN recording r ON r.id = t.recordingId
                LEFT JOIN entry e ON e.id = CASE WHEN s.ownerKind = 'entry' THEN s.ownerId ELSE r.entryId END
                LEFT JOIN journal j ON j.id = e.journalId
                LEFT JOIN assignment a ON a.id = r.assignmentId AND e.id IS NULL
                LEFT JOIN question q ON q.id = a.questionId
                LEFT JOIN journal qj ON qj.id = q.journalId
                WHERE search_index MATCH ? \(conditions.map { " AND " + $0 }.joined())
                ORDER BY rank
                LIMIT ?
                """
            var hits = try SearchHit.fetchAll(db, sql: sql, arguments: [pattern] + arguments + [limit * 2])
            // An entry can match twice (its title and its transcript): keep its best match.
            var seen = Set<String>()
            hits = hits.filter { hit in
                seen.insert("\(hit.entryId ?? -1)/\(hit.assignmentId ?? -1)").inserted
            }
            return Array(hits.prefix(limit))
        }
    }
}
