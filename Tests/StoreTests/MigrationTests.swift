import Foundation
import GRDB
import Testing
import TestSupport
@testable import Store

@Suite struct MigrationTests {
    @Test func aHomeWithoutAJournalIsReadAsEmptyAndNotCreated() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("not/yet"))
        let store = try JournalStore(home: home, for: .reading, logger: TemporaryJournal.logger)
        #expect(store.access == .empty && store.isReadOnly)
        let people = try store.people().map(\.name)
        #expect(try store.entries().isEmpty)
        #expect(people == ["Myself"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("not").path))
    }

    @Test func readingAnUpToDateJournalLeavesTheFileUntouched() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("home"))
        _ = try JournalStore(home: home, logger: TemporaryJournal.logger).addEntry(journal: nil, title: nil, content: "kept", mood: nil, theme: nil)
        let before = try FileManager.default.attributesOfItem(atPath: home.databaseURL.path)[.modificationDate] as? Date
        let store = try JournalStore(home: home, for: .reading, logger: TemporaryJournal.logger)
        #expect(store.access == .readWrite)
        let contents = try store.entries().map(\.content)
        #expect(contents == ["kept"])
        let after = try FileManager.default.attributesOfItem(atPath: home.databaseURL.path)[.modificationDate] as? Date
        #expect(after == before)
    }


    @Test func createsEveryTableAndMyselfOnAnEmptyDatabase() throws {
        let folder = try TemporaryFolder()
        let store = try JournalStore(home: DataHome(url: folder.path("home")), logger: TemporaryJournal.logger)
        let tables = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["assignment", "entry", "job", "journal", "person", "question", "recording", "search_index", "transcript"] {
            #expect(tables.contains(table), "missing table \(table)")
        }
        #expect(try store.people().map(\.name) == ["Myself"])
        #expect(try store.people().first?.relationship == "self")
    }

    @Test func upgradesADatabaseMadeByTheFirstMigrationWithoutLoss() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("home"))
        try home.create()
        // A database as the first release left it: core tables, rows, no search index yet.
        do {
            let queue = try DatabaseQueue(path: home.databaseURL.path)
            try Migrations.migrator.migrate(queue, upTo: Migrations.core)
            try queue.write { db in
                var journal = Journal(name: "Old", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
                try journal.insert(db)
                var entry = Entry(journalId: journal.id!, kind: .voice, content: "", mood: .grateful)
                try entry.insert(db)
                // The v1 columns only (today's Recording has more).
                try db.execute(sql: """
                    INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                    VALUES ('/tmp/a.wav', 'ab', 2, 16000, 1, 'wav', 64044, 'complete', ?, CURRENT_TIMESTAMP)
                    """, arguments: [entry.id])
                var transcript = Transcript(recordingId: db.lastInsertedRowID, text: "the lighthouse keeper waved", model: "whisper-1",
                                            segments: [.init(start: 0, end: 2, text: "the lighthouse keeper waved")])
                try transcript.insert(db)
            }
            #expect(try queue.read { db in try db.tableExists("search_index") } == false)
        }

        let store = try JournalStore(home: home, logger: TemporaryJournal.logger)
        #expect(try store.entries().map(\.transcript) == ["the lighthouse keeper waved"])
        let hits = try store.search("lighthouse")
        #expect(hits.count == 1)
        #expect(hits.first?.matchedIn == "transcript")
        // Opening again (migrations already applied) changes nothing.
        let again = try JournalStore(home: home, logger: TemporaryJournal.logger)
        #expect(try again.entries().count == 1)
        #expect(try again.search("keeper").count == 1)
        let applied = try again.pool.read { db in try Migrations.migrator.appliedIdentifiers(db) }
        #expect(applied == [Migrations.core, Migrations.search, Migrations.fileStamp, Migrations.chunks, Migrations.jobDueIndex])
        // Rows from before the file stamp have none: their files are hashed again before upload.
        let recording = try again.pool.read { db in try Recording.fetchOne(db) }
        #expect(recording?.sha256 == "ab" && recording?.fileStamp == nil)
    }

    @Test func homeIsPrivate() throws {
        let folder = try TemporaryFolder()
        let store = try JournalStore(home: DataHome(url: folder.path("nested/home")), logger: TemporaryJournal.logger)
        _ = try store.addEntry(journal: nil, title: nil, content: "secret", mood: nil, theme: nil)
        let home = try FileManager.default.attributesOfItem(atPath: store.home.url.path)
        let database = try FileManager.default.attributesOfItem(atPath: store.home.databaseURL.path)
        #expect((home[.posixPermissions] as? Int) == 0o700)
        #expect((database[.posixPermissions] as? Int) == 0o600)
        let wal = store.home.databaseURL.path + "-wal"
        if FileManager.default.fileExists(atPath: wal) {
            #expect((try FileManager.default.attributesOfItem(atPath: wal)[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func resolvesHomeFromFlagThenEnvironment() {
        #expect(DataHome.resolve(flag: "/x", environment: ["VOICEJOURNAL_HOME": "/y"]).url.path == "/x")
        #expect(DataHome.resolve(flag: nil, environment: ["VOICEJOURNAL_HOME": "/y", "XDG_DATA_HOME": "/z"]).url.path == "/y")
        #expect(DataHome.resolve(flag: nil, environment: ["XDG_DATA_HOME": "/z"]).url.path == "/z/voicejournal")
        #expect(DataHome.resolve(flag: nil, environment: ["HOME": "/h"]).url.path == "/h/.local/share/voicejournal")
    }
}
