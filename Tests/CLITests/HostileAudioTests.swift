import Foundation
import Testing
import TestSupport

/// Files that only look like audio, met by `transcribe`, `answer --file` and `meter FILE`:
/// playlists and concat lists naming local files, decompression bombs, empty files. A file is
/// audio by its own bytes: what it names is never opened, and what it declares is checked
/// before anything is decoded.
@Suite struct HostileAudioTests {
    private func harness() throws -> TranscribeHarness {
        var harness = try TranscribeHarness()
        // A regression that opens a named pipe would block: `timeout` ends the test instead.
        harness.binary.launcher = ["timeout", "120"]
        return harness
    }

    private func makeAssignment(_ binary: VoicejournalBinary) throws -> Int {
        _ = try binary.run(["journal", "create", "Questions"])
        let asked = try binary.run(["question", "add", "--journal", "Questions", "Where did you grow up?", "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int, "\(asked.stderr)")
        let assigned = try binary.run(["assign", "\(questionId)", "--person", "Myself", "--json"])
        return try #require((try assigned.json() as? [String: Any])?["id"] as? Int, "\(assigned.stderr)")
    }

    @Test func aPlaylistOrConcatListInAFolderIsNotAudioAndNothingItNamesIsOpenedOrUploaded() throws {
        let harness = try harness()
        let dir = harness.folder.path("downloads")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let flac = harness.folder.path("private.flac")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", flac.path, "synth", "2", "sine", "440", "vol", "0.3"])
        let pipe = try WatchedPipe(at: harness.folder.path("watched.flac"), feed: try Data(contentsOf: flac))
        defer { pipe.stop() }
        try HostileAudio.hlsPlaylist(naming: pipe.url).write(to: dir.appendingPathComponent("memo.m4a"))
        try HostileAudio.hlsPlaylist(naming: flac, live: true).write(to: dir.appendingPathComponent("live.webm"))
        try HostileAudio.concatList(naming: pipe.url).write(to: dir.appendingPathComponent("list.m4a"))
        try HostileAudio.concatList(naming: flac).write(to: dir.appendingPathComponent("other.mp4"))

        let result = try harness.binary.run(["transcribe", dir.path])
        let skipped = result.stderr.split(separator: "\n").filter { $0.hasPrefix("skipped ") }
        #expect(skipped.count == 4, "\(result.stderr)")
        #expect(skipped.allSatisfy { $0.contains("not audio") }, "\(result.stderr)")
        #expect(!pipe.wasOpened, "a file the playlist names was opened")
        #expect(try harness.server.requests().isEmpty)
    }

    @Test func aTinyFLACDeclaringTenHoursIsRefusedByAnswerAndMeterInUnderASecondOfCPU() throws {
        let folder = try TemporaryFolder()
        let bomb = try HostileAudio.silentFLAC(at: folder.path("bomb.flac"), seconds: 36000)
        let times = folder.path("time")
        var binary = VoicejournalBinary(home: folder.path("home"), launcher: ["/usr/bin/time", "-f", "%U %S", "-o", times.path])
        let id = try makeAssignment(binary)
        for arguments in [["answer", "\(id)", "--file", bomb.path], ["meter", bomb.path, "--width", "20"]] {
                let result = try binary.run(arguments)
                // time(1)'s last line: "user system" (a line before it may say the exit status).
                let last = try String(contentsOf: times, encoding: .utf8).split(separator: "\n").last ?? ""
                let cpu = last.split(separator: " ").compactMap { Double($0) }
                #expect(result.status == 1, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("decompression bomb"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(cpu.count == 2 && cpu.reduce(0, +) < 1.0, "\(arguments): \(cpu) s of CPU")
        }
        binary.launcher = []
        #expect(try CaptureDatabase.rows(home: binary.home, "SELECT id FROM recording").isEmpty)
    }

    @Test func anEmptyFileGetsTheSameWordsFromEveryCommand() throws {
        let harness = try harness()
        let empty = harness.folder.path("empty.wav")
        try Data().write(to: empty)
        let id = try makeAssignment(harness.binary)
        let transcribe = try harness.binary.run(["transcribe", empty.path])
        #expect(transcribe.stderr == "skipped \(empty.path): empty file\n")
        let meter = try harness.binary.run(["meter", empty.path])
        #expect(meter.status == 1)
        #expect(meter.stderr == "voicejournal: cannot draw \(empty.path): empty file\n")
        let answer = try harness.binary.run(["answer", "\(id)", "--file", empty.path])
        #expect(answer.status == 1)
        #expect(answer.stderr == "voicejournal: \(empty.path) is not audio voicejournal can read: empty file\n")
    }
}
