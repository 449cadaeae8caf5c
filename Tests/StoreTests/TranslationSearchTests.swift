import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// A transcript's English translation in the search index: found beside its text, kept there
/// through an upgrade, a correction of the text and a change of the translation.
@Suite(.onTestThreads) struct TranslationSearchTests {
    @Test func aTranslationStoredBeforeTheUpgradeIsFoundAndFollowsCorrections() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("home"))
        try home.create()
        let queue = try DatabaseQueue(path: home.databaseURL.path)
        try Migrations.migrator.migrate(queue, upTo: Migrations.translations)
        var entryId: Int64 = 0
        try queue.write { db in
            // In SQL, as this schema's release wrote them: today's records may have more columns.
            try db.execute(sql: "INSERT INTO journal (name, createdAt) VALUES (?, ?)",
                           arguments: ["Reisen", Date(timeIntervalSince1970: 1_700_000_000)])
            var entry = Entry(journalId: db.lastInsertedRowID, kind: .voice, content: "")
            try entry.insert(db)
            entryId = entry.id!
            try db.execute(sql: """
                INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                VALUES ('/tmp/fahrrad.wav', 'ab', 9, 16000, 1, 'wav', 64044, 'complete', ?, CURRENT_TIMESTAMP)
                """, arguments: [entry.id])
            try db.execute(sql: """
                INSERT INTO transcript (recordingId, text, language, model, segments, createdAt, translation, translationSegments)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [db.lastInsertedRowID, "Das Fahrrad war kalt. Wir fuhren heim.", "de", "base",
                                 Transcript.Segment.json([.init(start: 0, end: 3, text: " Das Fahrrad war kalt."),
                                                          .init(start: 5, end: 8, text: " Wir fuhren heim.")]), Date(),
                                 "The bike was cold. We rode home.",
                                 Transcript.Segment.json([.init(start: 0.5, end: 3, text: " The bike was cold."),
                                                          .init(start: 5.5, end: 8, text: " We rode home.")])])
        }
        let store = try JournalStore(home: home, logger: TemporaryJournal.logger)
        let rode = try #require(try store.search("rode").first)
        #expect(rode.matchedIn == "translation" && rode.segmentStart == 5.5 && rode.entryId == entryId)
        #expect(rode.snippet == "…We [rode] home.")
        let heim = try #require(try store.search("heim").first)
        #expect(heim.matchedIn == "transcript" && heim.segmentStart == 5)
        // Each snippet stays on its side of the line between the text and the translation.
        #expect(heim.snippet == "…Wir fuhren [heim].…")
        // One row per transcript: a word of each finds it once.
        #expect(try store.search("fahrrad bike").count == 1)

        // Correcting the original keeps the translation in the index, and the new word is found.
        _ = try store.correctEntry(id: entryId, text: "Das Rad war kalt. Wir fuhren heim.")
        #expect(try store.search("fahrrad").isEmpty)
        #expect(try store.search("rad").count == 1)
        #expect(try store.search("bike").count == 1)
        // A translation stored later (a re-run) replaces the old one in the index.
        try store.pool.write { db in try db.execute(sql: "UPDATE transcript SET translation = 'The wheel was cold.'") }
        #expect(try store.search("bike").isEmpty)
        #expect(try store.search("wheel").first?.matchedIn == "translation")
        // A transcript without a translation is found as before.
        #expect(try store.search("kalt").first?.matchedIn == "transcript")
    }
}
