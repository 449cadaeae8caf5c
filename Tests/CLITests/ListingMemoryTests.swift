import Foundation
import Testing
import VoiceJournalTestSupport

/// Listings and exports are written as the journal is read: peak memory does not grow with
/// the size of the output, and word timings stay out of listings unless asked for.
@Suite(.onTestThreads, .serialized) struct ListingMemoryTests {
    /// A journal of `entries` voice entries, each transcribed into `words` timed words (one
    /// segment a word), written straight into the database.
    static func largeJournal(entries: Int, words: Int) throws -> (TemporaryFolder, VoicejournalBinary) {
        let folder = try TemporaryFolder("vj-large")
        let binary = VoicejournalBinary(home: folder.path("home"))
        #expect(try binary.run(["journal", "create", "Days"]).status == 0)
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            entries, words = int(sys.argv[2]), int(sys.argv[3])
            journal = db.execute("SELECT id FROM journal WHERE name = 'Days'").fetchone()[0]
            # Every entry holds the same transcript: made once.
            segments = json.dumps([{"start": i * 0.3, "end": i * 0.3 + 0.25, "text": f" w{i}", "avgLogprob": -0.2,
                                    "words": [{"start": i * 0.3, "end": i * 0.3 + 0.25, "word": f" w{i}"}]} for i in range(words)])
            text = " ".join(f"w{i}" for i in range(words))
            for e in range(entries):
                when = f"2026-11-{1 + e % 28:02d} 10:{e % 60:02d}:00.000"
                entry = db.execute("INSERT INTO entry (journalId, kind, title, content, createdAt) VALUES (?, 'voice', ?, '', ?)",
                                   (journal, f"take {e}", when)).lastrowid
                recording = db.execute(
                    "INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt) "
                    "VALUES (?, ?, ?, 16000, 1, 'wav', 1000, 'complete', ?, ?)",
                    (f"/nowhere/take{e}.wav", f"{e:064x}", words * 0.3, entry, when)).lastrowid
                db.execute("INSERT INTO transcript (recordingId, text, language, model, segments, createdAt) VALUES (?, ?, 'en', 'whisper-1', ?, ?)",
                           (recording, text, segments, when))
            db.commit()
            """
        _ = try runTool("python3", ["-c", script, binary.home.appendingPathComponent("voicejournal.sqlite").path,
                                    String(entries), String(words)])
        return (folder, binary)
    }

    /// Runs the binary under `/usr/bin/time`, its stdout into `output`; returns the exit status
    /// and the peak resident memory in MB.
    static func measured(_ binary: VoicejournalBinary, _ arguments: [String], output: URL, in folder: TemporaryFolder) throws -> (Int32, Int) {
        let rss = folder.path("rss-\(UUID().uuidString.prefix(6)).txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", rss.path, VoicejournalBinary.executable.path, "--home", binary.home.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = binary.configFolder.path
        process.environment = environment
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try peakMemoryKilobytes(reportedIn: rss) ?? Int.max) / 1024)
    }

    @Test func aListingAndAnExportOf50EntriesOf20000TimedWordsStayUnder150MB() throws {
        let (folder, binary) = try Self.largeJournal(entries: 50, words: 20_000)
        let output = folder.path("list.json")
        let (status, peak) = try Self.measured(binary, ["entry", "list", "--json"], output: output, in: folder)
        print("peak RSS of entry list --json over 50 × 20,000 words: \(peak) MB")
        #expect(status == 0)
        #expect(peak < 150, "peak RSS \(peak) MB")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [[String: Any]])
        #expect(entries.count == 50)
        let segments = try #require(entries.first?["segments"] as? [[String: Any]])
        #expect(segments.count == 20_000 && segments.allSatisfy { $0["words"] == nil || $0["words"] is NSNull },
                "no word timings without --words")
        #expect(segments.first?["text"] as? String == " w0" && segments.first?["avgLogprob"] as? Double == -0.2)

        // --words brings them back, as stored.
        let withWords = try #require(try binary.run(["entry", "list", "--json", "--words", "--limit", "1"]).json() as? [[String: Any]])
        let words = (withWords.first?["segments"] as? [[String: Any]])?.compactMap { ($0["words"] as? [[String: Any]])?.first }
        #expect(words?.count == 20_000 && words?.last?["word"] as? String == " w19999")
        let refused = try binary.run(["entry", "list", "--words"])
        #expect(refused.status == 2 && refused.stderr.contains("--words goes with --json"), "\(refused.stderr)")

        // The whole journal as JSON, written row by row (its bytes are checked on a small one below).
        let archive = folder.path("voicejournal.json")
        let (exported, exportPeak) = try Self.measured(binary, ["export", "--format", "json"], output: archive, in: folder)
        let size = (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
        print("peak RSS of export --format json: \(exportPeak) MB for \(size >> 20) MB of output")
        #expect(exported == 0 && size > 100 << 20)
        #expect(exportPeak < 150, "peak RSS \(exportPeak) MB for \(size >> 20) MB")
        let handle = try FileHandle(forReadingFrom: archive)
        try handle.seek(toOffset: UInt64(size - 40))
        let tail = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(tail.hasSuffix("\n    }\n  ],\n  \"version\" : 1\n}\n"), "\(tail)")
    }

    @Test func aStreamedExportIsTheSameDocumentTheWholeArchiveWouldBe() throws {
        let (folder, binary) = try Self.largeJournal(entries: 3, words: 5)
        #expect(try binary.run(["entry", "add", "--journal", "Days", "--text", "A \"quoted\" line\\with / slashes"]).status == 0)
        let exported = try binary.run(["export", "--format", "json"], environment: ["VOICEJOURNAL_NOW": "2026-11-28T10:00:00Z"])
        #expect(exported.status == 0)
        // Its bytes parse, re-encode to the same objects, and an empty table is written as the encoder writes one.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        #expect(document["exportedAt"] as? String == "2026-11-28T10:00:00Z")
        #expect(exported.stdout.hasPrefix("{\n  \"exportedAt\" : \"2026-11-28T10:00:00Z\",\n  \"format\" : \"voicejournal-archive\",\n"))
        #expect(exported.stdout.hasSuffix("\n  ],\n  \"version\" : 1\n}\n"))
        #expect(exported.stdout.contains("\"rows\" : [\n\n      ]"), "an empty table")
        // The same bytes as the listing's whole document would be: no line holds only spaces.
        #expect(!exported.stdout.contains("\n \n") && !exported.stdout.contains(" \n"))
        // What it exported imports into a fresh home.
        let file = folder.path("export.json")
        try Data(exported.stdout.utf8).write(to: file)
        let fresh = VoicejournalBinary(home: folder.path("fresh"))
        let imported = try fresh.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try #require(try fresh.run(["entry", "list", "--json"]).json() as? [[String: Any]])
        #expect(listed.count == 4 && listed.contains { $0["content"] as? String == "A \"quoted\" line\\with / slashes" })
    }
}
