import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// `journal_rank` (the ranking function search uses) must give exactly FTS5's own bm25
/// scores: it differs only in how it reads each row's length, and a slip there (a row
/// skipped by its walking cursor, a deleted row's length, rows visited out of order) would
/// silently reorder results.
@Suite(.onTestThreads) struct JournalRankTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws {
        journal = try TemporaryJournal()
        // Entries of many lengths, with "coffee" common, "harbour" rare, and some entries
        // with no text at all (rows the cursor walks past).
        let words = ["coffee", "tea", "morning", "harbour", "walk", "the", "rain", "garden", "sea", "bread"]
        var generator = SeededGenerator(seed: 11)
        try store.pool.write { db in
            let journalId = try JournalStore.journalForNewEntry(db, named: nil).id!
            for index in 0..<400 {
                let length = index % 7 == 0 ? 0 : Int.random(in: 3...92, using: &generator)
                let text = (0..<length).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
                var entry = Entry(journalId: journalId, kind: .text, title: index % 5 == 0 ? "coffee notes" : nil,
                                  content: text)
                try entry.insert(db)
            }
            // Deleted and rewritten rows leave gaps and moved lengths in the index.
            try db.execute(sql: "DELETE FROM entry WHERE id % 11 = 3")
            try db.execute(sql: "UPDATE entry SET content = content || ' coffee coffee harbour' WHERE id % 13 = 5")
        }
    }

    /// Every matching row's (rowid, journal_rank, bm25), in the order `order` asks for.
    func scores(_ query: String, weights: String = "", order: String = "rowid") throws -> [(Int64, Double, Double)] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT rowid, journal_rank(search_index\(weights)) AS fast, bm25(search_index\(weights)) AS exact
                FROM search_index WHERE search_index MATCH ? ORDER BY \(order)
                """, arguments: [query]).map { ($0["rowid"], $0["fast"], $0["exact"]) }
        }
    }

    @Test(arguments: ["coffee", "harbour", "coffee tea", "coffee OR harbour", "\"morning walk\"", "title:coffee",
                      "coffee NOT rain", "the"])
    func givesBm25sScoresForEveryMatchingRow(query: String) throws {
        let rows = try scores(query)
        #expect(rows.count > 0)
        for (rowid, fast, exact) in rows {
            #expect(fast == exact, "row \(rowid): journal_rank \(fast), bm25 \(exact)")
        }
    }

    @Test func givesTheSameScoresWithColumnWeightsAndRowsVisitedBackwards() throws {
        for order in ["rowid", "rowid DESC"] {
            let rows = try scores("coffee OR rain", weights: ", 0, 0, 5.0, 1.0", order: order)
            #expect(rows.count > 100)
            #expect(rows.allSatisfy { $0.1 == $0.2 })
        }
    }

    @Test func ranksTheBestRowsFirstLikeBm25() throws {
        let best = { (function: String) in
            try store.pool.read { db in
                try Int64.fetchAll(db, sql: """
                    SELECT rowid FROM search_index WHERE search_index MATCH 'coffee'
                    ORDER BY \(function)(search_index), rowid LIMIT 25
                    """)
            }
        }
        #expect(try best("journal_rank") == best("bm25"))
    }
}
