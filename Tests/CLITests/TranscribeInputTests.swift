import Foundation
import Testing
import VoiceJournalTestSupport

/// What `transcribe` takes as audio: only regular files, whole ones. Runs go through
/// `timeout` so a regression that opens a pipe or reads a device ends the test instead of hanging it.
@Suite(.onTestThreads) struct TranscribeInputTests {
    private func harness() throws -> TranscribeHarness {
        var harness = try TranscribeHarness()
        harness.binary.launcher = ["timeout", "120"]
        return harness
    }

    private func recordingCount(_ harness: TranscribeHarness) throws -> Int {
        guard FileManager.default.fileExists(atPath: harness.database.path) else { return 0 }
        return try queryDatabase(harness.database, "SELECT count(*) FROM recording").first?.first as? Int ?? -1
    }

    @Test func aNamedPipeIsNotAudioAndIsNeverOpened() throws {
        let harness = try harness()
        // What `transcribe <(cat a.wav)` hands over: a pipe's path (/dev/fd/63).
        let fifo = harness.folder.path("from a process.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let result = try harness.binary.run(["transcribe", fifo.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "skipped \(fifo.path): not a regular file (a pipe)\n")
        #expect(try harness.server.requests().isEmpty)
        #expect(try recordingCount(harness) == 0)
    }

    @Test func linksInAFolderAreFollowedToAudioAndEverythingElseIsReported() throws {
        let harness = try harness()
        let dir = try harness.audio(1)
        let outside = try makeTone(at: harness.folder.path("outside.wav"), frequency: 660)
        var expected = try TrickyEntries.make(in: dir, linkingTo: outside)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("again").path, withDestinationPath: ".")
        expected["again"] = "a link to a folder already searched (\(dir.path))"

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 1, "the skipped entries are work not done: \(result.stderr)")
        let skipped = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("skipped ") }.sorted()
        #expect(skipped == expected.map { "skipped \(dir.path)/\($0.key): \($0.value)" }.sorted())
        #expect(result.stdout.contains("Transcribed 2 of 2 files (0 failed, 6 skipped)"))
        let transcripts = try harness.transcripts()
        #expect(transcripts.keys.sorted() == ["\(dir.path)/clip00.wav", "\(dir.path)/linked.wav"])
        #expect(try harness.server.requests().count == 2)
    }

    @Test func aTruncatedWAVIsSkippedWithWhatItsHeaderSaysAndWhatItHolds() throws {
        let harness = try harness()
        let tone = try makeTone(at: harness.folder.path("nine seconds.wav"), seconds: 9)
        let cut = harness.folder.path("cut.wav")
        try Data(try Data(contentsOf: tone).prefix(100_000)).write(to: cut)
        let result = try harness.binary.run(["transcribe", cut.path])
        #expect(result.status == 1)
        #expect(result.stderr == "skipped \(cut.path): truncated: the header says 9.0 s, the file holds 3.1 s\n")
        #expect(try harness.server.requests().isEmpty)
        #expect(try recordingCount(harness) == 0)
    }

    @Test func aTruncatedFLACInAFolderIsSkippedAndWholeFilesOfEveryKindAreTranscribed() throws {
        let harness = try harness()
        let dir = harness.folder.path("mixed")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (index, name) in ["whole.wav", "whole.flac", "whole.ogg", "long.flac"].enumerated() {
            try makeTone(at: dir.appendingPathComponent(name), seconds: name == "long.flac" ? 9 : 1, frequency: 300 + 40 * index)
        }
        let long = try Data(contentsOf: dir.appendingPathComponent("long.flac"))
        try long.prefix(long.count / 2).write(to: dir.appendingPathComponent("half.flac"))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("long.flac"))

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 1, "the truncated file is work not done: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("skipped ") }
        #expect(lines.count == 1 && lines[0].hasPrefix("skipped \(dir.path)/half.flac: truncated: the header says 9.0 s, the file holds "))
        #expect(result.stdout.contains("Transcribed 3 of 3 files (0 failed, 1 skipped)"))
        #expect(try harness.transcripts().keys.sorted() == ["whole.flac", "whole.ogg", "whole.wav"].map { "\(dir.path)/\($0)" })
    }
}
