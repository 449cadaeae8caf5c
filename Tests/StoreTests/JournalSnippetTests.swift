import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// `journal_snippet` and `journal_first_match` (what search shows a hit with) must give
/// exactly what FTS5's own snippet() and the first mark of highlight() give: they differ
/// only in how much of a row they walk, and a slip (a window scored off by one, a sentence
/// start missed, a mark left open at the window's end) would change what every hit shows.
@Suite(.onTestThreads) struct JournalSnippetTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    /// Words with sentence ends, colons, line breaks and letters beyond ASCII (so offsets in
    /// bytes and in scalars differ), several sharing a prefix.
    static let words = ["coffee", "cold", "tea", "morning", "walk", "walked", "the", "rain", "garden", "sea.", "bread:",
                        "harbour,", "café", "über", "naïve", "we", "with", "water.\n", "then", "rose"]

    init() throws {
        journal = try TemporaryJournal()
        var generator = SeededGenerator(seed: 36)
        func text(_ length: Int) -> String {
            (0..<length).map { _ in Self.words.randomElement(using: &generator)! }.joined(separator: " ")
        }
        try store.pool.write { db in
            let journalId = try JournalStore.journalForNewEntry(db, named: nil).id!
            for index in 0..<160 {
                // Short entries (a window wider than the text) to long transcripts, some with
                // a title, some transcripts with a translation after a line break.
                let length = [1, 5, 11, 12, 13, 40, 120, 300][index % 8]
                var entry = Entry(journalId: journalId, kind: .voice, title: index % 3 == 0 ? text(4) : nil, content: text(length / 2))
                try entry.insert(db)
                var recording = Recording(path: "/tmp/\(index).wav", sha256: "\(index)", sampleRate: 16000, channels: 1,
                                          format: "wav", state: .complete, entryId: entry.id)
                try recording.insert(db)
                var transcript = Transcript(recordingId: recording.id!, text: text(length), model: "whisper-1")
                if index % 4 == 1 { transcript.translation = text(length / 3 + 1) }
                try transcript.insert(db)
            }
        }
    }

    /// Every matching row's (rowid, snippet(), journal_snippet()) for these arguments.
    func snippets(_ query: String, column: Int = -1, tokens: Int = 12) throws -> [(Int64, String?, String?)] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT rowid, snippet(search_index, ?2, '[', ']', '…', ?3) AS exact,
                       journal_snippet(search_index, ?2, '[', ']', '…', ?3) AS fast
                FROM search_index WHERE search_index MATCH ?1 ORDER BY rowid
                """, arguments: [query, column, tokens]).map { ($0["rowid"], $0["exact"], $0["fast"]) }
        }
    }

    static let queries = ["coffee", "c*", "w*", "coffee tea", "\"morning walk\"", "\"the rain\" garden", "coffee OR harbour",
                          "NEAR(walk sea, 3)", "title:coffee", "coffee NOT rain", "t* s* m* w* c*", "café", "uber", "body:rose",
                          // "walk walked walk" holds two of these overlapping: one pair of marks goes round both.
                          "\"walk walked\"", "\"walk walk\" OR walk"]

    @Test(arguments: queries)
    func givesSnippetsTextForEveryMatchingRow(query: String) throws {
        let rows = try snippets(query)
        #expect(rows.count > 0)
        for (rowid, exact, fast) in rows {
            #expect(fast == exact, "row \(rowid)")
        }
    }

    /// Other window widths (one token, wider than most rows) and one column, as snippet() takes them.
    @Test(arguments: [1, 2, 5, 64], ["w*", "coffee tea", "\"the rain\" garden"])
    func givesSnippetsTextForOtherWidthsAndOneColumn(tokens: Int, query: String) throws {
        for column in [-1, 3] {
            for (rowid, exact, fast) in try snippets(query, column: column, tokens: tokens) {
                #expect(fast == exact, "row \(rowid), column \(column), \(tokens) tokens")
            }
        }
    }

    @Test(arguments: queries)
    func findsTheFirstMatchWhereHighlightPutsItsFirstMark(query: String) throws {
        let rows = try store.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT rowid, highlight(search_index, 3, char(1), char(2)) AS marked, journal_first_match(search_index, 3) AS fast
                FROM search_index WHERE search_index MATCH ? ORDER BY rowid
                """, arguments: [query])
        }
        #expect(rows.count > 0)
        for row in rows {
            let marked: String = row["marked"]
            let exact = marked.unicodeScalars.firstIndex(of: "\u{1}").map { marked.unicodeScalars.distance(from: marked.unicodeScalars.startIndex, to: $0) }
            let fast: Int? = row["fast"]
            #expect(fast == exact, "row \(row["rowid"] as Int64)")
        }
    }

    /// The second index (scripts without spaces, a character a token) reads its text the same way.
    @Test func givesSnippetsTextOnTheIndexOfScriptsWithoutSpaces() throws {
        _ = try store.addEntry(journal: nil, title: "旅行の記録", content: String(repeating: "今日は東京で雨でした。明日は京都へ行きます。", count: 30),
                               mood: nil, theme: nil)
        _ = try store.addEntry(journal: nil, title: nil, content: "東京 coffee 東京タワー and the sea: 東京駅", mood: nil, theme: nil)
        try store.pool.write(SearchScripts.sync)
        for query in ["東京", "京", "雨 京都", "coffee"] {
            let rows = try store.pool.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT rowid, snippet(search_index_cjk, -1, '[', ']', '…', 12) AS exact,
                           journal_snippet(search_index_cjk, -1, '[', ']', '…', 12) AS fast
                    FROM search_index_cjk WHERE search_index_cjk MATCH ?
                    """, arguments: [query])
            }
            #expect(rows.count > 0, "\(query)")
            for row in rows {
                #expect(row["fast"] as String? == row["exact"] as String?, "\(query), row \(row["rowid"] as Int64)")
            }
        }
    }
}
