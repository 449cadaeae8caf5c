import Foundation
import Synchronization
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

@Suite(.onTestThreads) struct MigrationTests {
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

    /// A new journal gets its schema from the migrator, as an older one is upgraded: the same
    /// schema as a database made by the first migration and upgraded later, and recorded so
    /// that none of the migrations runs again.
    @Test func aNewJournalsSchemaIsTheOneTheMigrationsMake() throws {
        let folder = try TemporaryFolder()
        let home = DataHome(url: folder.path("home"))
        let store = try JournalStore(home: home, logger: TemporaryJournal.logger)
        let upgraded = try DatabaseQueue()
        try Migrations.migrator.migrate(upgraded, upTo: Migrations.core)
        try Migrations.migrate(upgraded)
        func schema(_ reader: some DatabaseReader) throws -> [String] {
            try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
                    .map { "\($0["type"] as String) \($0["name"] as String) \($0["tbl_name"] as String): \(($0["sql"] as String?) ?? "-")" }
            }
        }
        let made = try schema(store.pool)
        #expect(made.count > 30)
        #expect(made == (try schema(upgraded)))
        #expect(try store.pool.read(Migrations.migrator.hasCompletedMigrations))
        #expect(try store.pool.read { try Migrations.migrator.appliedIdentifiers($0) } == Set(Migrations.steps.map(\.identifier)))
        // The same rows too: "Myself" exists once, as the first migration inserts it.
        #expect(try store.people().map(\.name) == ["Myself"])
    }

    /// Two processes migrating the same new journal at once both end with it migrated once:
    /// the one that finds a migration already run by the other carries on from there.
    @Test func twoMigrationsOfOneNewJournalAtOnceBothSucceed() throws {
        let folder = try TemporaryFolder()
        for round in 0..<10 {
            let path = folder.path("journal\(round).sqlite").path
            // The file in write-ahead-log mode already, as a pool leaves it.
            _ = try DatabasePool(path: path)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    // A pool of its own on the file, as another process would have.
                    var config = Configuration()
                    config.busyMode = .timeout(10)
                    try Migrations.migrate(DatabasePool(path: path, configuration: config))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let pool = try DatabasePool(path: path)
            #expect(try pool.read(Migrations.migrator.hasCompletedMigrations))
            #expect(try pool.read { try String.fetchAll($0, sql: "SELECT name FROM person") } == ["Myself"])
        }
    }

    /// A home whose database was migrated only up to `migration`, as an older release left
    /// it, holding a journal "Old" that `fill` adds rows to.
    func olderJournal(in folder: TemporaryFolder, upTo migration: String,
                      fill: (Database, _ journalId: Int64) throws -> Void) throws -> DataHome {
        let home = DataHome(url: folder.path("home"))
        try home.create()
        let queue = try DatabaseQueue(path: home.databaseURL.path)
        try Migrations.migrator.migrate(queue, upTo: migration)
        try queue.write { db in
            // In SQL: today's records have columns this schema does not have yet.
            try db.execute(sql: "INSERT INTO journal (name, createdAt) VALUES (?, ?)",
                           arguments: ["Old", Date(timeIntervalSince1970: 1_700_000_000)])
            try fill(db, db.lastInsertedRowID)
        }
        return home
    }

    @Test func upgradesADatabaseMadeByTheFirstMigrationWithoutLoss() throws {
        let folder = try TemporaryFolder()
        // A database as the first release left it: core tables, rows, no search index yet.
        let home = try olderJournal(in: folder, upTo: Migrations.core) { db, journalId in
            var entry = Entry(journalId: journalId, kind: .voice, content: "", mood: .grateful)
            try entry.insert(db)
            // The v1 columns only (today's Recording has more).
            try db.execute(sql: """
                INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                VALUES ('/tmp/a.wav', 'ab', 2, 16000, 1, 'wav', 64044, 'complete', ?, CURRENT_TIMESTAMP)
                """, arguments: [entry.id])
            try db.execute(sql: """
                INSERT INTO transcript (recordingId, text, model, segments, createdAt) VALUES (?, ?, ?, ?, ?)
                """, arguments: [db.lastInsertedRowID, "the lighthouse keeper waved", "whisper-1",
                                 Transcript.Segment.json([.init(start: 0, end: 2, text: "the lighthouse keeper waved")]), Date()])
        }
        #expect(try DatabaseQueue(path: home.databaseURL.path).read { db in try db.tableExists("search_index") } == false)

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
        #expect(Set(applied) == [Migrations.core, Migrations.search, Migrations.fileStamp, Migrations.chunks,
                                 Migrations.searchByRowid, Migrations.jobDueIndex, Migrations.livePieces, Migrations.journalFind,
                                 Migrations.jobEndpoint, Migrations.chunkSeams, Migrations.recordingPath, Migrations.transcriptReview,
                                 Migrations.languages, Migrations.translations, Migrations.searchScripts,
                                 Migrations.translationSearch, Migrations.reflections,
                                 Migrations.reflectionJobs, Migrations.askConversations, Migrations.deliveries, Migrations.nudges])
        // Rows from before the file stamp have none: their files are hashed again before upload.
        let recording = try again.pool.read { db in try Recording.fetchOne(db) }
        #expect(recording?.sha256 == "ab" && recording?.fileStamp == nil)
    }

    @Test func theSearchIndexStaysExactThroughEditsAfterUpgradingFromTheRowidlessIndex() throws {
        let folder = try TemporaryFolder()
        // A journal as v4 left it: an index keyed by ownerId, entries and transcripts in it.
        var transcripts: [String: Int64] = [:]
        var entries: [String: Int64] = [:]
        let home = try olderJournal(in: folder, upTo: Migrations.chunks) { db, journalId in
            for (name, content) in [("kept", "a kept note about otters"), ("edited", "a note about badgers"),
                                    ("removed", "a note about herons")] {
                var entry = Entry(journalId: journalId, kind: .text, title: "\(name) title", content: content)
                try entry.insert(db)
                entries[name] = entry.id
            }
            for (index, (name, text)) in [("kept", "the lighthouse keeper waved"), ("edited", "the ferry was late"),
                                          ("removed", "gulls over the pier"), ("entryGone", "walrus on the rocks")].enumerated() {
                var entry = Entry(journalId: journalId, kind: .voice, content: "")
                try entry.insert(db)
                if name == "entryGone" { entries[name] = entry.id }
                var recording = Recording(path: "/tmp/\(name).wav", sha256: "sha\(index)", sampleRate: 16000, channels: 1,
                                          format: "wav", state: .complete, entryId: entry.id)
                try recording.insert(db)
                try db.execute(sql: "INSERT INTO transcript (recordingId, text, model, segments, createdAt) VALUES (?, ?, ?, '[]', ?)",
                               arguments: [recording.id, text, "whisper-1", Date()])
                transcripts[name] = db.lastInsertedRowID
            }
        }

        let store = try JournalStore(home: home, logger: TemporaryJournal.logger)
        let found = { (words: String) in try store.search(words, limit: 100).map { "\($0.matchedIn) \($0.entryId ?? 0)" } }
        #expect(try found("ferry").count == 1, "rows from before the upgrade are in the rebuilt index")
        try store.pool.write { db in
            try db.execute(sql: "UPDATE transcript SET text = 'the ferry sailed on time' WHERE id = ?",
                           arguments: [transcripts["edited"]])
            try db.execute(sql: "DELETE FROM transcript WHERE id = ?", arguments: [transcripts["removed"]])
            try db.execute(sql: "UPDATE entry SET title = 'renamed', content = 'a note about foxes' WHERE id = ?",
                           arguments: [entries["edited"]])
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [entries["removed"]])
        }
        try store.deleter.deleteEntry(id: entries["entryGone"]!)

        #expect(try found("late").isEmpty, "no stale hit for an edited transcript's old words")
        #expect(try found("sailed time").count == 1)
        #expect(try found("ferry").count == 1)
        #expect(try found("gulls").isEmpty && found("pier").isEmpty)
        #expect(try found("badgers").isEmpty && found("edited").isEmpty)
        #expect(try found("foxes renamed") == ["entry \(entries["edited"]!)"])
        #expect(try found("herons").isEmpty && found("walrus").isEmpty)
        #expect(try found("otters kept").count == 1 && found("lighthouse keeper").count == 1, "others unaffected")
        #expect(try found("note").count == 2)
        try store.pool.read { db in
            // Exactly one index row per entry and transcript, under the rowid derived from its id,
            // and FTS5's own check that the index matches the stored text.
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index")
            let owners = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM entry) + (SELECT count(*) FROM transcript)")
            #expect(rows == owners && rows == 7)
            let misplaced = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM search_index s
                WHERE s.rowid != s.ownerId * 2 + (s.ownerKind = 'transcript')
                   OR (s.ownerKind = 'entry' AND NOT EXISTS (SELECT 1 FROM entry WHERE id = s.ownerId))
                   OR (s.ownerKind = 'transcript' AND NOT EXISTS (SELECT 1 FROM transcript WHERE id = s.ownerId))
                """)
            #expect(misplaced == 0)
        }
        try store.pool.write { db in
            try db.execute(sql: "INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)")
        }
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
