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
    /// "walking" finds "walked"). Filters narrow to entries of a journal, mood or period;
    /// the hits are then the best matches among those entries, however far down the
    /// unfiltered ranking they are.
    public func search(_ query: String, filter: EntryFilter = EntryFilter(), limit: Int = 20) throws -> [SearchHit] {
        guard let pattern = FTS5Pattern(matchingAllTokensIn: query) else {
            throw StoreError.invalidInput("search needs at least one word")
        }
        guard limit > 0 else { return [] }
        return try pool.read { db in
            if let journal = filter.journal { _ = try Self.journal(db, named: journal) }
            let ranking = SearchRanking(pattern: pattern, filter: filter, limit: limit)
            return try ranking.snippeted(ranking.bestHits(db), db)
        }
    }
}

/// How a search finds its best hits without touching every match: FTS5 ranks the matches
/// (bm25 needs only the index) and keeps the best few; only those are joined to their
/// entries, filtered and given a snippet.
///
/// The index's rowid says what a row is (`2 × id` for an entry, `2 × id + 1` for a
/// transcript, see the `v5-search-index` migration), so the join needs no column of the index.
struct SearchRanking {
    let pattern: FTS5Pattern
    let filter: EntryFilter
    let limit: Int

    /// A hit and the index row it came from (for its snippet).
    typealias RankedHit = (indexRow: Int64, hit: SearchHit)

    /// A filter keeping at least one entry in this many is broad: its search first looks
    /// through this many times `limit` of the best rows overall, which usually holds enough
    /// of its entries. A narrower filter's entries are few enough to rank on their own at once.
    private static let broadFilterShare = 8

    /// The best `limit` hits (snippets still empty), best first, one per entry or assignment.
    func bestHits(_ db: Database) throws -> [RankedHit] {
        let filtered = !filter.conditions().sql.isEmpty
        if filtered, try filterIsBroad(db) {
            // The best rows overall, filtered: exact when enough of them pass, since any
            // filtered row further down ranks below all of them.
            let firstPass = try pass(db, restricted: false, rows: Self.times(limit, Self.broadFilterShare))
            if firstPass.hits.count >= limit || !firstPass.more { return firstPass.hits }
        }
        // Rank only the rows that can pass (all rows when unfiltered); look further while
        // one entry's several matching rows (its title and its transcript) leave too few.
        var rows = Self.times(limit, 2)
        while true {
            let ranked = try pass(db, restricted: filtered, rows: rows)
            if ranked.hits.count >= limit || !ranked.more { return ranked.hits }
            rows = Self.times(rows, 4)
        }
    }

    /// A row count times a factor, at most `Int.max` (`--limit` takes any whole number).
    private static func times(_ rows: Int, _ factor: Int) -> Int {
        let (product, overflow) = rows.multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : product
    }

    /// Whether the filter keeps at least one entry in `broadFilterShare`: counted only that
    /// far, so a broad filter costs no more than a narrow one to check.
    private func filterIsBroad(_ db: Database) throws -> Bool {
        let (conditions, arguments) = filter.conditions()
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
        let enough = entries / Self.broadFilterShare + 1
        let kept = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM (SELECT 1 FROM entry e JOIN journal j ON j.id = e.journalId
                                  WHERE \(conditions.joined(separator: " AND ")) LIMIT ?)
            """, arguments: arguments + [enough]) ?? 0
        return kept >= enough
    }

    /// The hits among the best `rows` ranked rows (only the filtered entries' rows when
    /// `restricted`), and whether the ranking had more rows than that.
    private func pass(_ db: Database, restricted: Bool, rows: Int) throws -> (hits: [RankedHit], more: Bool) {
        let (conditions, filterArguments) = filter.conditions()
        let entryCondition = conditions.joined(separator: " AND ")
        // The filtered entries' index rows: each entry's own and its transcripts'.
        let picked = restricted ? """
            picked AS MATERIALIZED (
                SELECT e.id FROM entry e JOIN journal j ON j.id = e.journalId WHERE \(entryCondition)),
            """ : ""
        // `+rowid` keeps SQLite from handing the set to FTS5 as rowid lookups (one MATCH per
        // row); the rank ordered outside FTS5 is computed only for the rows in the set.
        // journal_rank is bm25 (the same scores) made cheap on common words: see CSearchRank.
        let restriction = restricted ? """
            AND +rowid IN (SELECT id * 2 FROM picked
                           UNION ALL
                           SELECT t.id * 2 + 1 FROM picked p
                           JOIN recording r ON r.entryId = p.id
                           JOIN transcript t ON t.recordingId = r.id)
            """ : ""
        // An assignment answer has no entry: it passes only when no entry filter is set.
        let passes = conditions.isEmpty ? "1" : "CASE WHEN e.id IS NOT NULL AND \(entryCondition) THEN 1 ELSE 0 END"
        let sql = """
            WITH \(picked)
            best AS MATERIALIZED (
                SELECT rowid AS indexRow, journal_rank(search_index) AS rank FROM search_index
                WHERE search_index MATCH ? \(restriction)
                ORDER BY rank LIMIT ?)
            SELECT best.indexRow, best.rank,
                   e.id AS entryId, CASE WHEN e.id IS NULL THEN r.assignmentId END AS assignmentId,
                   coalesce(j.name, qj.name) AS journal,
                   coalesce(e.title, q.text) AS title, e.mood,
                   coalesce(e.createdAt, t.createdAt) AS createdAt,
                   CASE best.indexRow % 2 WHEN 0 THEN 'entry' ELSE 'transcript' END AS matchedIn,
                   '' AS snippet, \(passes) AS passes
            FROM best
            LEFT JOIN transcript t ON best.indexRow % 2 = 1 AND t.id = best.indexRow / 2
            LEFT JOIN recording r ON r.id = t.recordingId
            LEFT JOIN entry e ON e.id = CASE best.indexRow % 2 WHEN 0 THEN best.indexRow / 2 ELSE r.entryId END
            LEFT JOIN journal j ON j.id = e.journalId
            LEFT JOIN assignment a ON a.id = r.assignmentId AND e.id IS NULL
            LEFT JOIN question q ON q.id = a.questionId
            LEFT JOIN journal qj ON qj.id = q.journalId
            ORDER BY best.rank, best.indexRow
            """
        var arguments: StatementArguments = restricted ? filterArguments : []
        arguments += [pattern, rows]
        arguments += filterArguments
        let ranked = try Row.fetchAll(db, sql: sql, arguments: arguments)
        var seen = Set<String>()
        var hits: [RankedHit] = []
        for row in ranked where try row.decode(Bool.self, forColumn: "passes") {
            let hit = try SearchHit(row: row)
            // An entry can match twice (its title and its transcript): keep its best match.
            guard seen.insert("\(hit.entryId ?? -1)/\(hit.assignmentId ?? -1)").inserted else { continue }
            hits.append((try row.decode(Int64.self, forColumn: "indexRow"), hit))
            if hits.count == limit { break }
        }
        return (hits, ranked.count == rows)
    }

    /// The hits with their snippets, made for these rows only (each is one rowid lookup).
    func snippeted(_ ranked: [RankedHit], _ db: Database) throws -> [SearchHit] {
        guard !ranked.isEmpty else { return [] }
        let rows = ranked.map(\.indexRow)
        var arguments: StatementArguments = [pattern]
        arguments += StatementArguments(rows)
        let snippets = try Dictionary(Row.fetchAll(db, sql: """
            SELECT rowid, snippet(search_index, -1, '[', ']', '…', 12) AS snippet FROM search_index
            WHERE search_index MATCH ? AND rowid IN (\(databaseQuestionMarks(count: rows.count)))
            """, arguments: arguments).map { row in
                (try row.decode(Int64.self, forColumn: "rowid"), try row.decode(String.self, forColumn: "snippet"))
            },
            uniquingKeysWith: { first, _ in first })
        return ranked.map { indexRow, hit in
            var hit = hit
            hit.snippet = snippets[indexRow] ?? ""
            return hit
        }
    }
}
