import Foundation
import VoiceJournalBatch
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct BatchScannerTests {
    @Test func sortsAudioFromEverythingElseAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let root = folder.path("Recordings")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("2024/März"), withIntermediateDirectories: true)
        let good = try makeTone(at: root.appendingPathComponent("2024/März/Sprachnotiz Ärger é.wav"))
        let flac = try makeTone(at: root.appendingPathComponent("b.flac"))
        try Data("not audio".utf8).write(to: root.appendingPathComponent("notes.txt"))
        try Data().write(to: root.appendingPathComponent("empty.wav"))
        try Data(try Data(contentsOf: good).prefix(20)).write(to: root.appendingPathComponent("truncated.wav"))
        try Data(repeating: 7, count: 100).write(to: root.appendingPathComponent("broken.m4a"))
        // A real AAC voice memo: libsndfile cannot read it, FFmpeg's libraries can.
        try runTool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.5",
                               "-c:a", "aac", root.appendingPathComponent("voice.m4a").path])
        try Data("x".utf8).write(to: root.appendingPathComponent(".hidden.wav"))

        let scan = scanned([root.path, folder.path("missing.wav").path])
        #expect(scan.audio.map(\.url.lastPathComponent) == ["Sprachnotiz Ärger é.wav", "b.flac", "voice.m4a"])
        #expect(scan.audio[0].info?.sampleRate == 16000)
        #expect(scan.audio[1].info?.format == "flac")
        // Probed through FFmpeg: its real length, not a guess from the name.
        #expect(abs((scan.audio[2].info?.durationSeconds ?? 0) - 1.5) < 0.1)
        _ = flac

        let reasons = Dictionary(uniqueKeysWithValues: scan.skipped.map { ($0.url.lastPathComponent, $0) })
        #expect(reasons.keys.sorted() == ["broken.m4a", "empty.wav", "missing.wav", "notes.txt", "truncated.wav"])
        #expect(reasons["broken.m4a"]?.reason.hasPrefix("not audio") == true, "\(reasons["broken.m4a"]?.reason ?? "")")
        #expect(reasons["empty.wav"]?.reason == "empty file")
        #expect(reasons["notes.txt"]?.reason.hasPrefix("not audio") == true)
        #expect(reasons["truncated.wav"]?.reason.contains("not a readable WAV file") == true)
        #expect(reasons["missing.wav"]?.wasNamed == true)
        #expect(reasons["notes.txt"]?.wasNamed == false)
    }

    @Test func anM4AThatFFmpegDecodesIsScannedWithItsRealLength() throws {
        let folder = try TemporaryFolder()
        let m4a = folder.path("memo.m4a")
        try runTool("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=7",
                               "-ac", "1", "-ar", "44100", "-c:a", "aac", m4a.path])
        let scan = scanned([m4a.path])
        let info = try #require(scan.audio.first?.info)
        #expect(abs(info.durationSeconds - 7) < 0.2)
        #expect(info.sampleRate == 44100 && info.channels == 1)
    }
}

/// Links, pipes and devices inside a folder: followed where they lead to audio, reported
/// where they do not, and never opened or walked forever.
@Suite(.onTestThreads) struct BatchScannerLinkTests {
    @Test func followsLinksOnceAndReportsEverythingItPassesOver() throws {
        let folder = try TemporaryFolder()
        let root = folder.path("Recordings"), elsewhere = folder.path("elsewhere")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: root.appendingPathComponent("2024"), withIntermediateDirectories: true)
        try fileManager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let outside = try makeTone(at: elsewhere.appendingPathComponent("outside.wav"))
        _ = try makeTone(at: root.appendingPathComponent("2024/a.wav"))
        var expected = try TrickyEntries.make(in: root, linkingTo: outside)
        func link(_ name: String, to destination: String) throws {
            try fileManager.createSymbolicLink(atPath: root.appendingPathComponent(name).path, withDestinationPath: destination)
        }
        try link("also a.wav", to: "2024/a.wav")
        try link("0 latest", to: "2024")           // sorts before the real folder, still reported as the link
        try link("2024/up", to: "..")
        expected["also a.wav"] = "the same file as \(root.path)/2024/a.wav"
        expected["0 latest"] = "a link to a folder already searched (\(root.path)/2024)"
        expected["2024/up"] = "a link to a folder already searched (\(root.path))"
        try Data("x".utf8).write(to: root.appendingPathComponent(".hidden.wav"))

        let scan = scanned([root.path])
        #expect(scan.audio.map(\.url.path) == [root.appendingPathComponent("2024/a.wav").path, root.appendingPathComponent("linked.wav").path])
        let reasons = Dictionary(uniqueKeysWithValues: scan.skipped.map {
            ($0.url.path.replacingOccurrences(of: root.path + "/", with: ""), $0.reason)
        })
        #expect(reasons == expected)
        #expect(scan.skipped.allSatisfy { !$0.wasNamed })
    }

    @Test func aNamedPipeIsReportedAsNamedAndATruncatedWAVBySize() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("from-a-process.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let tone = try makeTone(at: folder.path("tone.wav"), seconds: 9)
        let cut = folder.path("cut.wav")
        try Data(try Data(contentsOf: tone).prefix(100_000)).write(to: cut)
        let scan = scanned([fifo.path, cut.path, tone.path])
        #expect(scan.audio.map(\.url.path) == [tone.path])
        #expect(scan.skipped.map { "\($0.url.lastPathComponent): \($0.reason) \($0.wasNamed)" } == [
            "from-a-process.wav: not a regular file (a pipe) true",
            "cut.wav: truncated: the header says 9.0 s, the file holds 3.1 s true",
        ])
    }
}

/// What `transcribe PATH...` finds, by the steps it takes: the walk, then each file probed.
private func scanned(_ paths: [String]) -> (audio: [AudioCandidate], skipped: [SkippedFile]) {
    let walk = BatchScanner.walk(paths)
    var found: (audio: [AudioCandidate], skipped: [SkippedFile]) = ([], walk.skipped)
    for file in walk.files {
        switch BatchScanner.classify(file) {
        case .audio(let candidate): found.audio.append(candidate)
        case .passedOver(let skipped): found.skipped.append(skipped)
        }
    }
    return found
}
