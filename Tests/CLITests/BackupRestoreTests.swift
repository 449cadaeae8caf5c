import Foundation
import Testing
import VoiceJournalTestSupport

/// `backup` and `restore` driven like a user: a journal with a recorded take (audio in the
/// home) and a transcribed memo (audio elsewhere), backed up, deleted, brought back and played.
@Suite(.onTestThreads) struct BackupRestoreTests {
    static func samples(of url: URL) throws -> [Int16] { try WAVContents(url: url).samples }

    /// A journal with entry 1 (a take recorded from the virtual microphone, its audio under
    /// the home) and entry 2 (a memo transcribed from a folder, its audio outside the home).
    /// Returns the take's and the memo's samples.
    func keepAJournal(_ harness: TranscribeHarness) throws -> (take: [Int16], memo: URL) {
        var speech = try CaptureFixtures.speech("Hello there.", sampleRate: 16000)
        speech += Array(repeating: 0, count: (800 - speech.count % 800) % 800)
        let microphone = try VirtualMicrophone(in: harness.folder.url, samples: speech)
        let take = try harness.succeed(["record", "--device", microphone.name, "--no-meter", "--json", "--journal", "Personal",
                                        "--max-duration", "\(Double(speech.count) / 16000)"], environment: microphone.environment)
        let recorded = try #require(try take.json() as? [String: Any])
        #expect(recorded["entryId"] as? Int == 1, "\(take.stdout)")
        let memo = try harness.tones(["lighthouse.wav"], in: "memos", seconds: 1.5).appendingPathComponent("lighthouse.wav")
        try harness.succeed(["transcribe", memo.path, "--journal", "Personal"])
        try harness.succeed(["queue", "run"])
        return (try Self.samples(of: URL(fileURLWithPath: try #require(recorded["path"] as? String))), memo)
    }

    @Test func aDeletedEntryComesBackFromTheBackupWithItsAudioAndPlays() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let (take, memo) = try keepAJournal(harness)
        let memoSamples = try Self.samples(of: memo)
        let before = try harness.succeed(["entry", "show", "2"]).stdout
        let backup = harness.folder.path("journal.tar")
        let made = try #require(try harness.succeed(["backup", backup.path, "--json"]).json() as? [String: Any])
        #expect(made["entries"] as? Int == 2 && made["recordings"] as? Int == 2 && made["audioFiles"] as? Int == 2)
        // Any tar reads it: the database, both audio files by their paths in the home, the manifest.
        let listed = try runTool("tar", ["tf", backup.path]).split(separator: "\n").map(String.init)
        #expect(listed.first == "voicejournal.sqlite" && listed.last == "manifest.json")
        #expect(listed.contains { $0.hasPrefix("audio/20") && $0.hasSuffix(".wav") })
        #expect(listed.contains("audio/from-elsewhere/2-lighthouse.wav"), "\(listed)")

        try harness.succeed(["entry", "delete", "1", "--yes"])
        try harness.succeed(["entry", "delete", "2", "--yes"])
        try FileManager.default.removeItem(at: memo)
        #expect(try harness.binary.run(["entry", "show", "1"]).status != 0)

        // The backup says what it can bring back, and changes nothing.
        let listed2 = try harness.succeed(["restore", backup.path, "--list"]).stdout
        #expect(listed2.contains("ID  DATE") && listed2.contains("\n1  ") && listed2.contains("\n2  ") && listed2.contains("lighthouse"), "\(listed2)")
        #expect(listed2.hasSuffix("Bring one back: voicejournal restore \(backup.path) --entry 1\n"), "\(listed2)")
        #expect(try harness.binary.run(["entry", "show", "1"]).status != 0)
        let restored = try harness.succeed(["restore", backup.path, "--entry", "1", "--entry", "2"])
        #expect(restored.stdout.contains("Restored 2 entries and 2 recordings (2 audio files"), "\(restored.stdout)")
        #expect(try harness.succeed(["entry", "show", "2"]).stdout.replacingOccurrences(of: memo.path, with: "")
            .contains(before.split(separator: "\n").first.map(String.init) ?? "?"))
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        try harness.succeed(["play", "1", "--device", speaker.name], environment: speaker.environment)
        #expect(speaker.written() == take)
        try FileManager.default.createDirectory(at: harness.folder.path("second"), withIntermediateDirectories: true)
        let speaker2 = try VirtualSpeaker(in: harness.folder.path("second"))
        try harness.succeed(["play", "2", "--device", speaker2.name], environment: speaker2.environment)
        #expect(speaker2.written() == memoSamples)
        // Found by search again, through the index the restore rebuilt.
        #expect(try harness.succeed(["search", "lighthouse"]).stdout.contains("#2"))
        // Asked again, it is refused: the entry is there.
        let again = try harness.binary.run(["restore", backup.path, "--entry", "1"])
        #expect(again.status == 2 && again.stderr.contains("entry #1 is in the journal"), "\(again.stderr)")
        #expect(try harness.succeed(["restore", backup.path, "--list"]).stdout.hasPrefix("The journal has every entry"))
    }

    @Test func aWholeBackupRestoresIntoAnEmptyHomeRowForRow() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let (take, _) = try keepAJournal(harness)
        let backup = harness.folder.path("journal.tar")
        try harness.succeed(["backup", backup.path])
        let other = VoicejournalBinary(home: harness.folder.path("other"), environment: ["TZ": "UTC"])
        let result = try other.succeed(["restore", backup.path, "--json"])
        let summary = try #require(try result.json() as? [String: Any])
        #expect(summary["audioFiles"] as? Int == 2 && summary["entries"] as? Int == 2 && summary["recordings"] as? Int == 2)
        #expect(try other.succeed(["entry", "list"]).stdout == (try harness.succeed(["entry", "list"]).stdout))
        #expect(try other.succeed(["export", "--format", "txt", "--recording", "2"]).stdout
                == (try harness.succeed(["export", "--format", "txt", "--recording", "2"]).stdout))
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        try other.succeed(["play", "1", "--device", speaker.name], environment: speaker.environment)
        #expect(speaker.written() == take)
        // Every recording names a file in the new home.
        let paths = try CaptureDatabase.rows(home: other.home, "SELECT path FROM recording ORDER BY id").compactMap { $0["path"] as? String }
        #expect(paths.count == 2 && paths.allSatisfy { $0.hasPrefix(other.home.path + "/audio/") }, "\(paths)")
        // A home with no journal has nothing to back up: one line, exit 2; a missing folder for the file likewise.
        let nothing = try VoicejournalBinary(home: harness.folder.path("nothing")).run(["backup", harness.folder.path("n.tar").path])
        #expect(nothing.status == 2 && nothing.stderr == "voicejournal: there is no journal in \(harness.folder.path("nothing").path) to back up "
                + "(is --home or $VOICEJOURNAL_HOME the folder you meant?)\n", "\(nothing.stderr)")
        let nowhere = try harness.binary.run(["backup", harness.folder.path("no/such/folder.tar").path])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("there is no folder"), "\(nowhere.stderr)")
        // A home that holds a journal is not restored over.
        let twice = try other.run(["restore", backup.path])
        #expect(twice.status == 2 && twice.stderr.contains("already holds a journal") && twice.stderr.contains("--entry"), "\(twice.stderr)")
    }

    @Test func aBackupTakenWhileTheQueueRunsRestoresToAConsistentJournal() throws {
        let harness = try TranscribeHarness(delay: 0.05, environment: ["TZ": "UTC"])
        let folder = try harness.audio(40, in: "memos")
        try harness.succeed(["transcribe", folder.path, "--journal", "Personal", "--no-wait"])
        let runner = try harness.binary.start(["queue", "run", "--jobs", "2"])
        var backups: [URL] = []
        for index in 0..<4 {
            let backup = harness.folder.path("during-\(index).tar")
            try harness.succeed(["backup", backup.path])
            backups.append(backup)
            Thread.sleep(forTimeInterval: 0.3)
        }
        #expect(runner.wait().status == 0)
        var transcribed: [Int] = []
        for (index, backup) in backups.enumerated() {
            let home = harness.folder.path("restored-\(index)")
            let restored = VoicejournalBinary(home: home, environment: harness.binary.environment)
            try restored.succeed(["restore", backup.path])
            let db = home.appendingPathComponent("voicejournal.sqlite").path
            #expect(try runTool("sqlite3", [db, "PRAGMA integrity_check; PRAGMA foreign_key_check;"]) == "ok\n")
            // Nothing is left running for a runner that is gone; each recording's file is whole.
            #expect(try runTool("sqlite3", [db, "SELECT count(*) FROM job WHERE state = 'running'"]) == "0\n")
            let rows = try CaptureDatabase.rows(home: home, "SELECT path, sha256 FROM recording")
            #expect(rows.count == 40)
            for row in rows {
                #expect(try runTool("sha256sum", [try #require(row["path"] as? String)]).hasPrefix(try #require(row["sha256"] as? String)))
            }
            transcribed.append(Int(try runTool("sqlite3", [db, "SELECT count(*) FROM transcript"]).dropLast()) ?? -1)
            // The restored queue finishes the rest: every file transcribed once.
            try restored.succeed(["queue", "run"])
            #expect(try runTool("sqlite3", [db, "SELECT count(*) FROM transcript"]) == "40\n")
            #expect(try runTool("sqlite3", [db, "SELECT count(*) FROM job WHERE state != 'done'"]) == "0\n")
        }
        #expect(transcribed == transcribed.sorted(), "later backups hold no fewer transcripts: \(transcribed)")
    }

    @Test(.enabled(if: SmallDisk.isAvailable, "needs root and a container that may mount tmpfs (mount -t tmpfs); skipped"))
    func aFullDiskIsSaidAndLeavesNothingBehind() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let memo = try harness.tones(["lighthouse.wav"], in: "memos", seconds: 3).appendingPathComponent("lighthouse.wav")
        try harness.succeed(["transcribe", memo.path, "--journal", "Personal"])
        let disk = try SmallDisk(at: harness.folder.path("disk"), bytes: 128 * 1024)
        let result = try harness.binary.run(["backup", disk.url.appendingPathComponent("journal.tar").path])
        #expect(result.status == 1 && result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.folder.path("home/tmp").path).isEmpty)
        // A restore into a home on a disk too small for the backup is refused before anything is unpacked.
        let backup = harness.folder.path("journal.tar")
        try harness.succeed(["backup", backup.path])
        let small = try SmallDisk(at: harness.folder.path("small"), bytes: 2 * 1024 * 1024)
        let restored = try VoicejournalBinary(home: small.url.appendingPathComponent("home")).run(["restore", backup.path])
        #expect(restored.status == 1 && restored.stderr.contains("MB free; restoring this backup needs about"), "\(restored.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.url.appendingPathComponent("home/tmp").path).isEmpty)
    }
}
