import Foundation
import Testing
import VoiceJournalTestSupport

/// Files that only look like audio, met by `transcribe`, `answer --file` and `meter FILE`:
/// playlists and concat lists naming local files, decompression bombs, empty files. A file is
/// audio by its own bytes: what it names is never opened, and what it declares is checked
/// before anything is decoded.
@Suite(.onTestThreads) struct HostileAudioTests {
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

    /// Speech (espeak-ng) as `name` in `dir`, encoded by ffmpeg with `arguments` (or by sox for AIFF).
    private func speech(_ harness: TranscribeHarness, _ dir: URL, _ name: String, _ arguments: [String], text: String) throws -> URL {
        let wav = harness.folder.path("speech-\(UUID().uuidString).wav"), out = dir.appendingPathComponent(name)
        try CaptureFixtures.speak(text, to: wav, wordsPerMinute: nil)
        try runTool("ffmpeg", ["-loglevel", "error", "-y", "-i", wav.path] + arguments + [out.path])
        return out
    }

    @Test func misnamedAudioIsTranscribedByItsBytesAndUploadedUnderTheNameOfWhatItIs() throws {
        let harness = try harness()
        let dir = harness.folder.path("misnamed")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try speech(harness, dir, "aac.wav", ["-c:a", "aac", "-f", "mp4"], text: "This one is AAC in an MP4 box.")
        try speech(harness, dir, "opus.ogg", ["-ar", "48000", "-c:a", "libopus", "-f", "webm"], text: "This one is a WebM file.")
        try speech(harness, dir, "Voice Memo", ["-c:a", "aac", "-f", "ipod"], text: "This one is a voice memo.")
        try speech(harness, dir, "mp3.wav", ["-c:a", "libmp3lame", "-f", "mp3"], text: "This one is an MP3 file.")
        try speech(harness, dir, "aiff.wav", ["-c:a", "pcm_s16be", "-f", "aiff"], text: "This one is an AIFF file.")

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
        let uploads = try harness.server.requests().compactMap(\.file)
        #expect(uploads.count == 5, "\(result.stderr)")
        let sent = Dictionary(uploads.map { ($0.filename ?? "", $0.contentType ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(sent["aac.m4a"] == "audio/mp4", "\(sent)")
        #expect(sent["opus.webm"] == "audio/webm", "\(sent)")
        #expect(sent["Voice Memo.m4a"] == "audio/mp4", "\(sent)")
        #expect(sent["mp3.mp3"] == "audio/mpeg", "\(sent)")
        // AIFF is no container the API takes: encoded, never sent as a ".wav".
        #expect(!sent.keys.contains { $0.hasPrefix("aiff") && $0.hasSuffix(".wav") }, "\(sent)")
        #expect(sent.values.allSatisfy { $0 != "audio/wav" }, "\(sent)")
    }

    @Test func libmpg123sNotesAboutAnOrdinaryMP3DoNotReachTheTerminal() throws {
        let harness = try harness()
        let dir = harness.folder.path("mp3")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let clean = try speech(harness, dir, "clean.mp3", ["-c:a", "libmp3lame"], text: "An ordinary MP3 file with a tag after it.")
        // Data after the last frame (a tag editor's leftovers) and one damaged frame: files
        // players take without a word.
        var bytes = try Data(contentsOf: clean)
        let tagged = dir.appendingPathComponent("tagged.mp3"), glitched = dir.appendingPathComponent("glitched.mp3")
        var generator = SeededGenerator(seed: 7)
        try (bytes + Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) })).write(to: tagged)
        bytes.removeSubrange(5000..<5100)
        try bytes.write(to: glitched)
        for file in [tagged, glitched] {
            let meter = try harness.binary.run(["meter", file.path, "--width", "20"])
            #expect(meter.status == 0, "\(meter.stderr)")
            #expect(meter.stderr.isEmpty, "\(meter.stderr)")
        }
        let result = try harness.binary.run(["transcribe", dir.path])
        let noise = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Note:") || $0.hasPrefix("Warning:") || $0.hasPrefix("[src/") }
        #expect(noise.isEmpty, "\(result.stderr)")
    }

    @Test func answerFileRefusesACutOffWebMAsTruncatedAndTakesTheWholeOne() throws {
        let harness = try harness()
        let id = try makeAssignment(harness.binary)
        let whole = try speech(harness, harness.folder.url, "whole.webm", ["-ar", "48000", "-c:a", "libopus", "-f", "webm", "-live", "1"],
                               text: "I grew up in a small house by the sea, near the harbour, with my two brothers.")
        let cut = harness.folder.path("cut.webm")
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count / 4).write(to: cut)
        let refused = try harness.binary.run(["answer", "\(id)", "--file", cut.path])
        #expect(refused.status == 1)
        #expect(refused.stderr == "voicejournal: \(cut.path): truncated: the end of the file is missing\n")
        #expect(try CaptureDatabase.rows(home: harness.binary.home, "SELECT id FROM recording").isEmpty)
        let taken = try harness.binary.run(["answer", "\(id)", "--file", whole.path])
        #expect(taken.status == 0, "\(taken.stderr)")
    }

    @Test func transcribeSkipsADecompressionBombWithoutDecodingIt() throws {
        var harness = try harness()
        let dir = harness.folder.path("downloads")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let bomb = try HostileAudio.silentFLAC(at: dir.appendingPathComponent("bomb.flac"), seconds: 36000)
        let times = harness.folder.path("time")
        harness.binary.launcher = ["/usr/bin/time", "-f", "%U %S", "-o", times.path]
        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.stderr.hasPrefix("skipped \(bomb.path): damaged or a decompression bomb: it declares 10:00:00 of audio"),
                "\(result.stderr)")
        let last = try String(contentsOf: times, encoding: .utf8).split(separator: "\n").last ?? ""
        let cpu = last.split(separator: " ").compactMap { Double($0) }
        #expect(cpu.count == 2 && cpu.reduce(0, +) < 1.0, "\(cpu) s of CPU")
        #expect(try harness.server.requests().isEmpty)
    }
}
