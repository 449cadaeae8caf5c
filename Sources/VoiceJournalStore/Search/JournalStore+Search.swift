import Foundation
import GRDB

/// One search result: the entry (or answered assignment) whose text or transcript matched.
public struct SearchHit: Codable, Sendable, Equatable, FetchableRecord {
    /// The matching entry; nil for an assignment answer (then `assignmentId` is set).
    public var entryId: Int64?
    public var assignmentId: Int64?
    /// The recording whose transcript matched (nil for a match in an entry's title or text).
    public var recordingId: Int64?
    public var journal: String?
    public var title: String?
    public var mood: Mood?
    public var createdAt: Date
    /// Where the words matched: `entry` (title or text), `transcript`, or `translation` (the
    /// transcript's English translation; `segmentStart` is then the translation's segment's).
    public var matchedIn: String
    /// A few words around the match, the matched words between the search's highlight marks
    /// (`[` and `]` unless the caller chose others).
    public var snippet: String
    /// For a match in a transcript: where, in seconds from the recording's start, the segment
    /// holding the first matched word begins (nil when the transcript has no segments).
    public var segmentStart: Double?
    /// bm25 score: lower is a better match.
    public var rank: Double
}

/// How a search marks the matched words in a snippet.
public struct SearchHighlight: Sendable, Equatable {
    public var open: String
    public var close: String
    public init(open: String, close: String) {
        self.open = open
        self.close = close
    }

    /// `[`word`]`: what `--json` and a pipe get.
    public static let brackets = SearchHighlight(open: "[", close: "]")
}

extension JournalStore {
    /// Full-text search over entry titles, entry text and transcripts, best match first.
    /// The query is FTS5's own language (see `SearchQuery`): plain words must all appear (in
    /// any order; "porter" stemming, so "walking" finds "walked"). Filters narrow to entries
    /// of a journal, mood, kind or period, or to the answers `person` gave; the hits are then
    /// the best matches among those, however far down the unfiltered ranking they are.
    /// A search still running after `timeLimit` stops with a `StoreError` of kind
    /// `tookTooLong` that says how to narrow it.
    public func search(_ query: String, filter: EntryFilter = EntryFilter(), person: String? = nil, limit: Int = 20,
                       highlight: SearchHighlight = .brackets, timeLimit: Duration = SearchTimeLimit.standard) throws -> [SearchHit] {
        try search(query, filter: filter, person: person, limit: limit, highlight: highlight, snippets: true, timeLimit: timeLimit)
    }

    /// The hits `search` finds, best first, without their snippets or segment starts (empty,
    /// nil): for a caller wanting only which entries match best, which saves reading their texts.
    public func bestMatches(_ query: String, filter: EntryFilter = EntryFilter(), person: String? = nil, limit: Int = 20,
                            timeLimit: Duration = SearchTimeLimit.standard) throws -> [SearchHit] {
        try search(query, filter: filter, person: person, limit: limit, highlight: .brackets, snippets: false, timeLimit: timeLimit)
    }

    private func search(_ query: String, filter: EntryFilter, person: String?, limit: Int, highlight: SearchHighlight,
                        snippets: Bool, timeLimit: Duration) throws -> [SearchHit] {
        let deadline = SearchTimeLimit.deadline(after: timeLimit)
        // The pattern is matched against the probe table only when the search fails: a
        // pattern FTS5 refuses is then told as such, any other failure stays what it was.
        // Checking every query first would cost each search the probe table's making.
        let parsed = try SearchQuery(query, checked: false)
        guard limit > 0 else {
            try SearchQuery.check(parsed.pattern, text: query)
            return []
        }
        // Words of a script written without spaces are found in the second index, brought up
        // to date first (a read-only journal is searched as its index stands).
        let scripts = SearchScripts.hasSpacelessScript(parsed.pattern)
        if scripts { try? pool.write(SearchScripts.sync) }
        do {
            return try pool.read { db in
                try SearchTimeLimit.enforce(deadline, limit: timeLimit, on: db) {
                    if let journal = filter.journal { _ = try Self.journal(db, named: journal) }
                    let personId = try person.map { try Self.person(db, matching: $0).storedId() }
                    let scope = SearchScope(filter: filter, personId: personId)
                    if scope.isEmpty {
                        try SearchQuery.check(parsed.pattern, text: query)  // FTS5 never saw it
                        return []
                    }
                    let ranking = SearchRanking(pattern: parsed.pattern, scope: scope, limit: limit, highlight: highlight,
                                                index: scripts ? .spaceless : .words)
                    let best = try ranking.bestHits(db)
                    return snippets ? try ranking.snippeted(best, db) : best.map(\.hit)
                }
            }
        } catch let error as DatabaseError {
            try SearchQuery.check(parsed.pattern, text: query)
            throw error
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
    /// The FTS5 query (`SearchQuery.pattern`).
    let pattern: String
    let scope: SearchScope
    let limit: Int
    let highlight: SearchHighlight
    /// Which index to search: the words one, or the one of scripts without spaces.
    let index: Index

    /// An FTS5 table and its ranking function.
    struct Index {
        let table: String
        let rank: String
        static let words = Index(table: "search_index", rank: "journal_rank")
        static let spaceless = Index(table: SearchScripts.table, rank: SearchScripts.rank)
    }

    /// A hit and the index row it came from (for its snippet).
    typealias RankedHit = (indexRow: Int64, hit: SearchHit)

    /// A filter keeping at least one entry in this many is broad: its search first looks
    /// through this many times `limit` of the best rows overall, which usually holds enough
    /// of its entries. A narrower filter's entries are few enough to rank on their own at once.
    private static let broadFilterShare = 8

    /// The best `limit` hits (snippets still empty), best first, one per entry or assignment.
    func bestHits(_ db: Database) throws -> [RankedHit] {
        let filtered = !scope.isUnfiltered
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
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
        let answers = try Int.fetchOne(db, sql: "SELECT count(*) FROM recording WHERE assignmentId IS NOT NULL") ?? 0
        return try scope.keepsAtLeast((entries + answers) / Self.broadFilterShare + 1, db)
    }

    /// The hits among the best `rows` ranked rows (only the filtered entries' rows when
    /// `restricted`), and whether the ranking had more rows than that.
    private func pass(_ db: Database, restricted: Bool, rows: Int) throws -> (hits: [RankedHit], more: Bool) {
        let picked = scope.pickedRows
        // `+rowid` keeps SQLite from handing the set to FTS5 as rowid lookups (one MATCH per
        // row); the rank ordered outside FTS5 is computed only for the rows in the set.
        // journal_rank is bm25 (the same scores) made cheap on common words: see CSearchRank.
        let restriction = restricted ? "AND +rowid IN (\(picked.rows))" : ""
        let passes = scope.passes
        let sql = """
            WITH \(restricted ? picked.tables : "")
            best AS MATERIALIZED (
                SELECT rowid AS indexRow, \(index.rank)(\(index.table)) AS rank FROM \(index.table)
                WHERE \(index.table) MATCH ? \(restriction)
                ORDER BY rank LIMIT ?)
            SELECT best.indexRow, best.rank,
                   e.id AS entryId, CASE WHEN e.id IS NULL THEN r.assignmentId END AS assignmentId,
                   r.id AS recordingId, NULL AS segmentStart,
                   coalesce(j.name, qj.name) AS journal,
                   coalesce(e.title, q.text) AS title, e.mood,
                   coalesce(e.createdAt, r.createdAt) AS createdAt,
                   CASE best.indexRow % 2 WHEN 0 THEN 'entry' ELSE 'transcript' END AS matchedIn,
                   '' AS snippet, \(passes.sql) AS passes
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
        var arguments: StatementArguments = restricted ? picked.arguments : []
        arguments += [pattern, rows]
        arguments += passes.arguments
        let ranked = try Row.fetchAll(db, sql: sql, arguments: arguments)
        var seen = Set<String>()
        var hits: [RankedHit] = []
        for row in ranked where try row.decode(Bool.self, forColumn: "passes") {
            let hit = try SearchHit(row: row)
            // An entry can match twice (its title and its transcript): keep its best match.
            guard seen.insert(hit.entryId.map { "e\($0)" } ?? "r\(hit.recordingId ?? -1)").inserted else { continue }
            hits.append((try row.decode(Int64.self, forColumn: "indexRow"), hit))
            if hits.count == limit { break }
        }
        return (hits, ranked.count == rows)
    }

    /// The hits with their snippets, made for these rows only (each is one rowid lookup),
    /// and for a transcript's hit the start of the segment its first matched word is in.
    /// `journal_snippet` is FTS5's snippet() (the same text) at a cost linear in the row's
    /// matches, and `journal_first_match` reads the text only up to the first match: see CSearchRank.
    func snippeted(_ ranked: [RankedHit], _ db: Database) throws -> [SearchHit] {
        guard !ranked.isEmpty else { return [] }
        let rows = ranked.map(\.indexRow)
        var arguments: StatementArguments = [highlight.open, highlight.close, pattern]
        arguments += StatementArguments(rows)
        let found = try Row.fetchAll(db, sql: """
            SELECT rowid, journal_snippet(\(index.table), -1, ?, ?, '…', 12) AS snippet,
                   CASE rowid % 2 WHEN 1 THEN journal_first_match(\(index.table), 3) END AS firstMatch
            FROM \(index.table)
            WHERE \(index.table) MATCH ? AND rowid IN (\(databaseQuestionMarks(count: rows.count)))
            """, arguments: arguments)
        var snippets: [Int64: String] = [:]
        var firstMatch: [Int64: Int] = [:]
        for row in found {
            let indexRow: Int64 = try row.decode(Int64.self, forColumn: "rowid")
            snippets[indexRow] = try row.decode(String.self, forColumn: "snippet")
            if let offset = try row.decode(Int?.self, forColumn: "firstMatch") { firstMatch[indexRow / 2] = offset }
        }
        // A transcript's row holds its text, a line break and its translation (see
        // `Migrations.indexTranslations`): a first match past the text is in the translation,
        // and its time comes from the translation's segments.
        var texts: [Int64: String] = [:]
        var translations: [Int64: String] = [:]
        let ids = Array(firstMatch.keys)
        for row in try Row.fetchAll(db, sql: """
            SELECT id, text, translation FROM transcript WHERE id IN (\(databaseQuestionMarks(count: ids.count)))
            """, arguments: StatementArguments(ids)) {
            let id = try row.decode(Int64.self, forColumn: "id")
            texts[id] = try row.decode(String.self, forColumn: "text")
            translations[id] = try row.decode(String?.self, forColumn: "translation")
        }
        var inText: [Int64: Int] = [:], inTranslation: [Int64: Int] = [:]
        for (id, offset) in firstMatch {
            guard let text = texts[id] else { continue }
            let length = text.unicodeScalars.count
            if offset > length, translations[id] != nil { inTranslation[id] = offset - length - 1 } else { inText[id] = offset }
        }
        let textSegments = try Self.timedSegments(db, column: "segments", ids: Array(inText.keys))
        let translationSegments = try Self.timedSegments(db, column: "translationSegments", ids: Array(inTranslation.keys))
        var segmentStarts: [Int64: Double] = [:]
        for (id, offset) in inText {
            guard let text = texts[id], let timed = textSegments[id] else { continue }
            segmentStarts[id] = TranscriptTimeline.segmentStart(atScalarOffset: offset, text: text, segments: timed)
        }
        for (id, offset) in inTranslation {
            guard let text = translations[id], let timed = translationSegments[id] else { continue }
            segmentStarts[id] = TranscriptTimeline.segmentStart(atScalarOffset: offset, text: text, segments: timed)
        }
        return ranked.map { indexRow, hit in
            var hit = hit
            hit.snippet = snippets[indexRow] ?? ""
            if indexRow % 2 == 1 {
                hit.segmentStart = segmentStarts[indexRow / 2]
                if inTranslation[indexRow / 2] != nil { hit.matchedIn = "translation" }
                if translations[indexRow / 2] != nil { hit.snippet = Self.matchedPart(of: hit.snippet, open: highlight.open) }
            }
            return hit
        }
    }

    /// A snippet of a transcript with a translation kept to the side its first match is in
    /// (the text or the translation, a line break apart in the index), "…" where it is cut.
    static func matchedPart(of snippet: String, open: String) -> String {
        let parts = snippet.components(separatedBy: "\n")
        guard parts.count > 1, let index = parts.firstIndex(where: { $0.contains(open) }) else { return snippet }
        let part = parts[index]
        return (index > 0 && !part.hasPrefix("…") ? "…" : "") + part + (index < parts.count - 1 && !part.hasSuffix("…") ? "…" : "")
    }

    /// The starts and texts of the segments in `column` (`segments` or `translationSegments`)
    /// of each transcript in `ids`, read by SQLite's JSON functions: decoding them with
    /// Codable would make a search pay for JSONDecoder's and the runtime's type lookups at start-up.
    private static func timedSegments(_ db: Database, column: String, ids: [Int64]) throws -> [Int64: [Transcript.Segment]] {
        guard !ids.isEmpty else { return [:] }
        var segments: [Int64: [Transcript.Segment]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT t.id, s.value ->> 'start' AS start, s.value ->> 'text' AS segment
            FROM transcript t, json_each(t.\(column)) s
            WHERE t.id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY t.id, s.key
            """, arguments: StatementArguments(ids)) {
            let id = try row.decode(Int64.self, forColumn: "id")
            segments[id, default: []].append(Transcript.Segment(start: try row.decode(Double?.self, forColumn: "start") ?? 0, end: 0,
                                                                text: try row.decode(String?.self, forColumn: "segment") ?? ""))
        }
        return segments
    }
}
