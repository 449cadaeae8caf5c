import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The second search index (scripts written without spaces) in the store: made for an older
/// journal by its migration, kept in step, and the language filter on stored rows.
@Suite(.onTestThreads) struct ScriptSearchStoreTests {
    @Test func anOlderJournalsChineseTranscriptIsFoundAfterTheUpgrade() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("home"))
        try home.create()
        let queue = try DatabaseQueue(path: home.databaseURL.path)
        try Migrations.migrator.migrate(queue, upTo: Migrations.translations)
        try queue.write { db in
            // In SQL, as this schema's release wrote them: today's records may have more columns.
            try db.execute(sql: "INSERT INTO journal (name, createdAt) VALUES (?, ?)",
                           arguments: ["Old", Date(timeIntervalSince1970: 1_700_000_000)])
            var entry = Entry(journalId: db.lastInsertedRowID, kind: .voice, content: "")
            try entry.insert(db)
            try db.execute(sql: """
                INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                VALUES ('/tmp/a.wav', 'ab', 2, 16000, 1, 'wav', 64044, 'complete', ?, CURRENT_TIMESTAMP)
                """, arguments: [entry.id])
            try db.execute(sql: """
                INSERT INTO transcript (recordingId, text, language, model, segments, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [db.lastInsertedRowID, "我今天去北京看朋友", "chinese", "whisper-1",
                                 Transcript.Segment.json([.init(start: 0, end: 2, text: "我今天去北京看朋友")]), Date()])
        }
        let store = try JournalStore(home: home, logger: TemporaryJournal.logger)
        let hits = try store.search("北京")
        #expect(hits.map(\.snippet) == ["我今天去[北京]看朋友"])
        #expect(hits.first?.segmentStart == 0)
        // The older row's language name is read as its code, and filtered by it.
        #expect(try store.entries().map(\.language) == ["zh"])
        #expect(try store.entries(EntryFilter(language: "zh")).count == 1)
        #expect(try store.search("北京", filter: EntryFilter(language: "ja")).isEmpty)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index_cjk") } == 1)
    }

    @Test func aLatinQueryStillRanksOnTheWordsIndexAndAMixedRowIsInBoth() throws {
        let journal = try TemporaryJournal()
        let store = journal.store
        _ = try store.addEntry(journal: nil, title: nil, content: "Tokyo trip: 東京タワー at night", mood: nil, theme: nil)
        _ = try store.addEntry(journal: nil, title: nil, content: "a trip to the coast", mood: nil, theme: nil)
        #expect(try store.search("trip").count == 2)
        #expect(try store.search("東京 trip").map(\.snippet) == ["Tokyo [trip]: [東京]タワー at night"])
        #expect(try store.search("タワー").count == 1)
    }
}
