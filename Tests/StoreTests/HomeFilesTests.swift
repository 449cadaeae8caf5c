import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// Which paths are the journal's own files, and which a delete may remove.
@Suite(.onTestThreads) struct HomeFilesTests {
    let folder: TemporaryFolder
    let home: DataHome

    init() throws {
        folder = try TemporaryFolder("vj-home-files")
        home = DataHome(url: folder.path("home"))
        try home.create()
    }

    @Test func placesAreJudgedWhereAPathReallyLies() throws {
        let root = home.url.path
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(at: disk.appendingPathComponent("2026/11"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(root)/audio", withDestinationPath: disk.path)
        try FileManager.default.createDirectory(atPath: "\(root)/tmp", withIntermediateDirectories: true)
        // A folder under audio/ that leads back into the home.
        try FileManager.default.createSymbolicLink(atPath: disk.appendingPathComponent("2026/back").path, withDestinationPath: root)
        let files = HomeFiles(home)
        let expected: [(String, HomeFiles.Place)] = [
            ("\(root)/audio/2026/11/a.wav", .audio),
            (disk.appendingPathComponent("2026/11/a.wav").path, .audio),
            ("\(root)/tmp/job3-part1.flac", .temporary),
            ("\(root)/voicejournal.sqlite", .elsewhereInHome),
            ("\(root)/voicejournal.sqlite-shm", .elsewhereInHome),
            ("\(root)/audio", .elsewhereInHome),
            ("\(root)/tmp", .elsewhereInHome),
            (root, .elsewhereInHome),
            ("\(root)/incoming/x.wav", .elsewhereInHome),
            ("\(root)/audio/2026/back/voicejournal.sqlite", .elsewhereInHome),
            ("\(root)/audio/2026/../../voicejournal.sqlite", .malformed),
            ("audio/2026/11/a.wav", .malformed),
            ("", .malformed),
            ("\(root)/audio/a\nb.wav", .malformed),
            (folder.path("podcasts/episode.mp3").path, .outside),
        ]
        for (path, place) in expected { #expect(files.place(of: path) == place, "\(path)") }
    }

    @Test func anAudioFolderLinkedAboveTheHomeOwnsNothing() throws {
        try FileManager.default.createSymbolicLink(atPath: "\(home.url.path)/audio", withDestinationPath: "/")
        let files = HomeFiles(home)
        #expect(files.place(of: "\(home.url.path)/audio/etc/passwd") == .elsewhereInHome)
        #expect(files.place(of: "\(home.url.path)/audio\(home.url.path)/voicejournal.sqlite") == .elsewhereInHome)
        #expect(files.removeFile("\(home.url.path)/audio/etc/hostname", from: .audio) != .removed)
    }

    @Test func removingTakesOnlyRegularFilesOfThatPlace() throws {
        let root = home.url.path
        try FileManager.default.createDirectory(atPath: "\(root)/audio/2026/11/folder", withIntermediateDirectories: true)
        let recording = "\(root)/audio/2026/11/a.wav"
        try Data("audio".utf8).write(to: URL(fileURLWithPath: recording))
        let outsideFile = folder.path("keep.txt")
        try Data("mine".utf8).write(to: outsideFile)
        try FileManager.default.createSymbolicLink(atPath: "\(root)/audio/2026/11/link.wav", withDestinationPath: outsideFile.path)
        let files = HomeFiles(home)
        #expect(files.removeFile("\(root)/audio/2026/11/folder", from: .audio) != .removed)
        #expect(FileManager.default.fileExists(atPath: "\(root)/audio/2026/11/folder"))
        #expect(files.removeFile("\(root)/audio/2026/11/link.wav", from: .audio) != .removed)
        #expect(FileManager.default.fileExists(atPath: outsideFile.path))
        #expect(files.removeFile(home.databaseURL.path, from: .audio) != .removed)
        #expect(files.removeFile(outsideFile.path, from: .audio) != .removed)
        #expect(files.removeFile(recording, from: .temporary) != .removed)
        #expect(files.removeFile(recording, from: .audio) == .removed)
        #expect(!FileManager.default.fileExists(atPath: recording))
        #expect(files.removeFile(recording, from: .audio) == .missing)
    }
}

/// Chunk files a runner is told to remove: only those voicejournal made under `tmp/`.
@Suite(.onTestThreads) struct ChunkFileOwnershipTests {
    @Test func aChunkNamingAFileOutsideTmpIsNeverHandedOutForRemoval() throws {
        let journal = try TemporaryJournal()
        let store = journal.store
        // A recording and its job being split, as an imported journal could hold them.
        try store.pool.write { db in
            try db.execute(sql: """
                INSERT INTO recording (id, path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, createdAt)
                VALUES (1, '/elsewhere/a.wav', 'aa', 2, 16000, 1, 'wav', 10, 'complete', '2026-11-01 00:00:00')
                """)
            try db.execute(sql: """
                INSERT INTO job (id, recordingId, kind, state, priority, attempts, maxAttempts, runAfter, leaseOwner, createdAt, updatedAt)
                VALUES (1, 1, 'transcribe', 'running', 0, 0, 6, '2026-11-01 00:00:00', 'w', '2026-11-01 00:00:00', '2026-11-01 00:00:00')
                """)
        }
        let own = store.home.url.appendingPathComponent("tmp/1-a-job1-part1.flac").path
        let elsewhere = journal.folder.path("Documents/notes.txt").path
        #expect(try store.queue.splitJob(id: 1, owner: "w", chunks: [PlannedChunk(startSeconds: 0, path: own),
                                                               PlannedChunk(startSeconds: 1, path: elsewhere)], durationSeconds: 2))
        let chunks = try store.pool.write { db in
            try db.execute(sql: "UPDATE job SET state = 'running', leaseOwner = 'w' WHERE kind LIKE 'transcribe-chunk-%'")
            return try Int64.fetchAll(db, sql: "SELECT jobId FROM job_chunk ORDER BY chunkIndex")
        }
        let result = ChunkResult(text: "hi", language: "en", model: "m", segments: [])
        let assemble = { (_: [JobChunk]) in Transcript(recordingId: 1, text: "hi", model: "m") }
        _ = try store.queue.completeChunk(jobId: chunks[0], owner: "w", result: result, assemble: assemble)
        #expect(try store.queue.completeChunk(jobId: chunks[1], owner: "w", result: result, assemble: assemble)
                == .assembled(parentJobId: 1, chunkPaths: [own]))
    }
}

/// Search queries of every shape: each is searched or refused with a sentence, quickly.
@Suite(.onTestThreads) struct SearchQueryFuzzTests {
    @Test func randomQueriesAreSearchedOrRefusedNeverWorse() throws {
        let journal = try TemporaryJournal()
        for text in ["Harbour walk with the dog", "The ferry left the harbour late", "Rain, then harbour lights"] {
            _ = try journal.store.addEntry(journal: nil, title: nil, content: text, mood: nil, theme: nil)
        }
        let pieces = ["harbour", "dog", "rain*", "\"harbour lights\"", "AND", "OR", "NOT", "(", ")", "NEAR(", ",", "5",
                      "2147483648", "\"", "*", "-", "é", "ferry", "NEAR", "99999999999999999999", ")", "(("]
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...40, using: &generator)
            let query = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined(separator: " ")
            let started = Date()
            do {
                _ = try journal.store.search(query)
            } catch let error as StoreError {
                #expect(error.kind == .invalidInput, "\(query): \(error)")
            }
            #expect(Date().timeIntervalSince(started) < 1, "\(query)")
        }
        // Long runs of one shape, at the limits.
        for query in [String(repeating: "harbour OR ", count: 199) + "dog", String(repeating: "NOT dog ", count: 150),
                      String(repeating: "(harbour ", count: 1_000) + String(repeating: ")", count: 1_000),
                      String(repeating: "NEAR(", count: 1_000) + "harbour dog" + String(repeating: ")", count: 1_000)] {
            let started = Date()
            do { _ = try journal.store.search(query) } catch let error as StoreError { #expect(error.kind == .invalidInput) }
            #expect(Date().timeIntervalSince(started) < 2, "\(query.prefix(40))")
        }
    }
}
