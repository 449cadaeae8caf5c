import Foundation
import Testing
import VoiceJournalTestSupport

/// What `transcribe` prints: the text where people look for it, and where each file's text is.
@Suite(.onTestThreads) struct TranscribeOutputTests {
    @Test func oneFilesTranscriptIsPrintedOnStdoutAndTheSummaryOnStderr() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        let result = try harness.binary.run(["transcribe", "\(dir.path)/clip00.wav"])
        #expect(result.status == 0, "\(result.stderr)")
        // Only the words the server answered: `> out.txt` holds the transcript alone.
        #expect(result.stdout == "Transcript of clip00.\n", "\(result.stdout)")
        #expect(result.stderr.contains("voicejournal: Transcribed 1 of 1 file (0 failed, 0 skipped)"), "\(result.stderr)")
        // Run again: the stored transcript is printed, nothing is uploaded twice.
        let again = try harness.binary.run(["transcribe", "\(dir.path)/clip00.wav"])
        #expect(again.stdout == "Transcript of clip00.\n", "\(again.stdout)")
        #expect(try harness.server.requests().count == 1)
        // --quiet: the summary only.
        let quiet = try harness.binary.run(["transcribe", "\(dir.path)/clip00.wav", "--quiet"])
        #expect(!quiet.stdout.contains("Transcript of") && quiet.stdout.contains("Transcribed 1 of 1 file"), "\(quiet.stdout)")
    }

    @Test func aBatchSaysWhereEachFilesTextIsAndPrintShowsTheTexts() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let ids = try queryDatabase(harness.database, "SELECT id, path FROM recording ORDER BY path")
        let first = try #require(ids.first?.first as? Int)
        #expect(result.stdout.contains("\(dir.path)/clip00.wav: recording \(first) (voicejournal export --format txt --recording \(first))"),
                "\(result.stdout)")
        #expect(result.stdout.contains("Transcribed 2 of 2 files"))
        #expect(!result.stdout.contains("Transcript of"))
        // The command the line names prints the text.
        let text = try harness.binary.run(["export", "--format", "txt", "--recording", "\(first)"])
        #expect(text.status == 0 && text.stdout == "Transcript of clip00.\n", "\(text.stdout) \(text.stderr)")

        let printed = try harness.binary.run(["transcribe", dir.path, "--print"])
        #expect(printed.stdout == """
            ==> \(dir.path)/clip00.wav <==
            Transcript of clip00.

            ==> \(dir.path)/clip01.wav <==
            Transcript of clip01.

            """, "\(printed.stdout)")
        #expect(printed.stderr.contains("Transcribed 2 of 2 files"))

        let quiet = try harness.binary.run(["transcribe", dir.path, "--quiet"])
        #expect(quiet.stdout.split(separator: "\n").count == 1 && quiet.stdout.hasPrefix("Transcribed 2 of 2 files"), "\(quiet.stdout)")
    }

    @Test func withAJournalEachLineNamesTheEntry() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let result = try harness.binary.run(["transcribe", dir.path, "--journal", "Personal"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try queryDatabase(harness.database, "SELECT entryId FROM recording WHERE path LIKE '%clip01.wav'")
        let entry = try #require(rows.first?.first as? Int)
        #expect(result.stdout.contains("\(dir.path)/clip01.wav: entry \(entry) (voicejournal entry show \(entry))"), "\(result.stdout)")
    }

    @Test func jsonCarriesEachFilesIdsAndText() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let result = try harness.binary.run(["transcribe", dir.path, "--journal", "Personal", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json() as? [String: Any])
        let transcripts = try #require(json["transcripts"] as? [[String: Any]])
        #expect(transcripts.map { $0["text"] as? String } == ["Transcript of clip00.", "Transcript of clip01."])
        #expect(transcripts.allSatisfy { $0["recordingId"] is Int && $0["entryId"] is Int })
        #expect(transcripts.first?["path"] as? String == "\(dir.path)/clip00.wav")
    }

    @Test func printAndQuietAreOneChoice() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        for extra in [["--print", "--quiet"], ["--print", "--json"], ["--quiet", "--no-wait"]] {
            let result = try harness.binary.run(["transcribe", dir.path] + extra)
            #expect(result.status == 2, "\(extra)")
        }
        #expect(try harness.server.requests().isEmpty)
    }

    @Test func aTranscriptHoldingTerminalControlsIsPrintedAsText() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [.says("bell\u{07} and \u{1B}]0;title\u{07} done")])])
        let dir = try harness.audio(1)
        let result = try harness.binary.run(["transcribe", "\(dir.path)/clip00.wav"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "\(result.stdout)")
        #expect(result.stdout.contains("\\e]0;title"), "\(result.stdout)")
    }

    @Test func queueListHasAHeaderAndSaysWhatItsNumbersAre() throws {
        let harness = try TranscribeHarness(rules: [.init(match: "clip01", responses: [], then: .error(status: 400, message: "not this one"))])
        let dir = try harness.audio(2)
        #expect(try harness.binary.run(["transcribe", dir.path]).status == 1)
        let list = try harness.binary.run(["queue", "list"])
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["JOB", "STATE", "ATTEMPTS", "FILE", "NOTE"], "\(list.stdout)")
        let failed = try #require(lines.first { $0.contains("clip01.wav") })
        #expect(failed.contains("failed") && failed.contains("1 of 6") && failed.contains("not this one"), "\(failed)")
        let done = try #require(lines.first { $0.contains("clip00.wav") })
        #expect(done.contains("done") && done.hasSuffix("clip00.wav"), "no note, no trailing spaces: \(done)")
    }

    @Test func onATerminalASkippedLineNeverRunsOnFromTheProgressBar() throws {
        var harness = try TranscribeHarness(rules: [.init(responses: [.slow(1)])])
        // On a pseudo-terminal (stderr a TTY, so the bar is drawn); what it shows comes back on stdout.
        harness.binary.launcher = VoicejournalBinary.onATerminal
        let dir = try harness.audio(2)
        try Data().write(to: dir.appendingPathComponent("zz empty.wav"))
        try Data("shopping list".utf8).write(to: dir.appendingPathComponent("zz notes.txt"))
        // One worker: the first file is queued before the run starts, the rest (the skipped
        // ones among them) while the bar is on screen.
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "1", "--quiet"], stdin: FileHandle(forReadingAtPath: "/dev/null"))
        let screen = result.stdout
        #expect(screen.contains("\u{1B}[2K"), "the bar is drawn: \(screen.debugDescription)")
        var skips = 0
        var rest = screen[...]
        while let found = rest.range(of: "skipped ") {
            let before = screen[..<found.lowerBound]
            #expect(before.hasSuffix("\n") || before.hasSuffix("\u{1B}[2K"), "glued to what came before: \(screen.debugDescription)")
            skips += 1
            rest = rest[found.upperBound...]
        }
        #expect(skips == 2, "\(screen.debugDescription)")
    }

    @Test func aTextFileBesideTheRecordingsIsNotWorkButEmptyAudioIs() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        try Data("shopping list".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data().write(to: dir.appendingPathComponent("blank.md"))
        let clean = try harness.binary.run(["transcribe", dir.path])
        #expect(clean.status == 0 && clean.stderr.contains("skipped \(dir.path)/notes.txt: not audio"), "\(clean.stderr)")
        // Audio that cannot be transcribed is work not done: exit 1, so a script can tell.
        try Data().write(to: dir.appendingPathComponent("memo.m4a"))
        let empty = try harness.binary.run(["transcribe", dir.path])
        #expect(empty.status == 1 && empty.stderr.contains("skipped \(dir.path)/memo.m4a: empty file"), "\(empty.stderr)")
        // Named on the command line, a file that is not audio is a mistake too.
        #expect(try harness.binary.run(["transcribe", "\(dir.path)/notes.txt"]).status == 1)
    }
}
