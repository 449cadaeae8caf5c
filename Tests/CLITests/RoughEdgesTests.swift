import Foundation
import Testing
import VoiceJournalTestSupport

/// The CLI's rough edges: usage errors in the style of every other error, and `queue status`
/// escaping what comes from outside but not its own separators.
@Suite(.onTestThreads) struct RoughEdgesTests {
    static let usageMistakes: [(arguments: [String], says: String, help: String)] = [
        (["entry", "list", "--frobnicate"], "Unknown option '--frobnicate'", "voicejournal entry list --help"),
        (["entry", "show"], "Missing expected argument '<id>'", "voicejournal entry show --help"),
        (["entry", "show", "abc"], "The value 'abc' is invalid for '<id>'", "voicejournal entry show --help"),
        (["entry", "list", "--mood", "elated"], "following: happy, grateful, excited", "voicejournal entry list --help"),
        (["entry", "list", "--limit"], "Missing value for '--limit <limit>'", "voicejournal entry list --help"),
        (["transcribe", "/nonexistent", "--jobs", "0"], "--jobs must be between 1 and 64, not 0", "voicejournal transcribe --help"),
        (["queue", "list", "--limit", "0"], "--limit must be a whole number of at least 1, not 0", "voicejournal queue list --help"),
        (["frobnicate"], "Unexpected argument 'frobnicate'", "voicejournal --help"),
        (["search", "a\tb", "--bogus"], "Unknown option '--bogus'", "voicejournal search --help"),
    ]

    @Test(arguments: usageMistakes)
    func aUsageMistakeIsOneLineStartingWithTheProgramsNameAndExits2(_ mistake: (arguments: [String], says: String, help: String)) throws {
        let folder = try TemporaryFolder("vj-usage")
        let result = try VoicejournalBinary(home: folder.path("home")).run(mistake.arguments)
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && lines.first?.hasPrefix("voicejournal: ") == true, "\(result.stderr)")
        #expect(result.stderr.contains(mistake.says) && result.stderr.contains("(see '\(mistake.help)')"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpAndVersionStillPrintOnStdoutAndExit0() throws {
        let folder = try TemporaryFolder("vj-usage")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let help = try binary.run(["entry", "list", "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty && help.stdout.contains("USAGE: voicejournal entry list"), "\(help.stderr)")
        let version = try binary.run(["--version"])
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func queueStatusSeparatesItsColumnsWithTabsAndEscapesOnlyWhatCameFromOutside() throws {
        let harness = try TranscribeHarness(delay: 20)
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = try makeTone(at: dir.appendingPathComponent("call\twith\nmum.wav"))
        let run = try harness.binary.start(["transcribe", file.path])
        defer {
            run.signal(SIGINT)
            _ = run.wait()
        }
        var line: Substring?
        let deadline = Date().addingTimeInterval(20)
        while line == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            line = try harness.binary.run(["queue", "status"]).stdout.split(separator: "\n").first { $0.hasPrefix("  running ") }
        }
        let running = try #require(line)
        let escapedPath = file.path.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        #expect(running.split(separator: "\t").map(String.init) == ["  running 1", escapedPath, "on \(harness.server.baseURL)"],
                "\(running)")
    }
}

/// `entry edit` when the editor does not leave UTF-8 text in the file it was given.
@Suite(.onTestThreads) struct EditorMishapTests {
    @Test(arguments: [
        ("rm", "voicejournal: the editor (rm) removed the file it was given; entry #1 is unchanged"),
        ("printf '\\377\\376bad' >", "voicejournal: the editor saved text that is not UTF-8; save it as UTF-8 and try again (entry #1 is unchanged)"),
    ])
    func anEditorThatLeavesNoTextIsOneClearLine(editor: String, says: String) throws {
        let folder = try TemporaryFolder("vj-editor")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["entry", "add", "--text", "hello there"]).status == 0)
        let result = try cli.run(["entry", "edit", "1"], environment: ["VISUAL": editor])
        #expect(result.status == 1)
        #expect(result.stderr == says + "\n")
        #expect(try cli.run(["entry", "show", "1"]).stdout.contains("hello there"))
    }
}

/// `transcribe` on files that are still being written or changed since they were transcribed.
@Suite(.onTestThreads) struct ChangingFileTests {
    /// Starts a recorder at work: a WAV (header kept valid, as Python's `wave` does after every
    /// write) that gets 0.1 s of tone every 0.1 s after a first second, `seconds` long in all.
    static func startRecorder(at url: URL, seconds: Double) throws -> Process {
        let script = """
            import math, struct, sys, time, wave
            w = wave.open(sys.argv[1], "wb"); w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
            block = b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 300 * i / 16000))) for i in range(1600))
            w.writeframes(block * 10)
            for _ in range(int(float(sys.argv[2]) * 10) - 10):
                time.sleep(0.1); w.writeframes(block)
            w.close()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path, String(seconds)]
        try process.run()
        return process
    }

    @Test func aFileStillBeingWrittenIsSkippedAndTranscribedWholeOnceItIsDone() throws {
        let harness = try TranscribeHarness()
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("take.wav")
        let recorder = try Self.startRecorder(at: file, seconds: 4)
        defer { recorder.terminate() }
        // The recorder has started writing (python can take a while to start on a busy machine).
        let deadline = Date().addingTimeInterval(10)
        while ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) < 32_000, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.2)

        let early = try harness.binary.run(["transcribe", dir.path])
        #expect(early.status == 1, "\(early.stderr)")
        #expect(early.stderr.contains("skipped \(file.path): still being written"), "\(early.stderr)")
        #expect(try harness.server.requests().isEmpty, "nothing of a partial take is uploaded")
        #expect(try queryDatabase(harness.database, "SELECT count(*) FROM recording").first?.first as? Int == 0)

        recorder.waitUntilExit()
        try harness.succeed(["transcribe", dir.path])
        let rows = try queryDatabase(harness.database, "SELECT durationSeconds FROM recording")
        #expect(rows.count == 1 && rows.first?.first as? Double == 4, "the whole take: \(rows)")
    }

    @Test func aFileThatChangedSinceItWasTranscribedIsTheSameRecordingTranscribedAgain() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .echoSHA)])
        let dir = try harness.tones(["memo.wav"], in: "in", seconds: 1)
        let file = dir.appendingPathComponent("memo.wav")
        try harness.succeed(["transcribe", dir.path])

        try makeTone(at: file, seconds: 1.5, frequency: 660)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: file.path)
        let again = try harness.succeed(["transcribe", dir.path])
        #expect(again.stderr.contains("voicejournal: \(file.path) changed since it was transcribed: recording 1 now holds its new audio"),
                "\(again.stderr)")
        let rows = try queryDatabase(harness.database, "SELECT id, sha256, durationSeconds FROM recording")
        #expect(rows.count == 1, "one recording for one path: \(rows)")
        let sha = try #require(rows.first?[1] as? String)
        #expect(try harness.transcripts()[file.path]?.text.hasSuffix("sha256:\(sha)") == true, "the transcript is of the new audio")
        #expect(rows.first?[2] as? Double == 1.5)
        // Once more, unchanged: nothing to do.
        let third = try harness.succeed(["transcribe", dir.path])
        #expect(!third.stderr.contains("changed since"))
        #expect(try harness.server.requests().count == 2)
    }
}
