import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal play FILE` off a terminal, through the `file` plugin as the speaker: what it
/// writes is what was played.
@Suite(.onTestThreads) struct PlayCommandTests {
    /// 3 s of 16 kHz mono that never repeats within a period.
    private static let samples: [Int16] = (0..<48_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }

    private func wav(in folder: TemporaryFolder) throws -> URL {
        let raw = folder.url.appendingPathComponent("samples.raw"), url = folder.url.appendingPathComponent("take.wav")
        try Self.samples.withUnsafeBytes { Data($0) }.write(to: raw)
        _ = try runTool("sox", ["-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", raw.path, url.path])
        return url
    }

    @Test func playsExactlyTheSamplesFromAtToToAndPrintsNothing() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
        let result = try binary.run(["play", try wav(in: folder).path, "--device", speaker.name, "--at", "0:01.25", "--to", "2.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(speaker.written() == Array(Self.samples[20_000..<40_000]))
    }

    @Test func jsonSaysWhatWasPlayed() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
        let file = try wav(in: folder)
        let result = try binary.run(["play", file.path, "--device", speaker.name, "--at", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["file"] as? String == file.path)
        #expect(report["from"] as? Double == 1 && report["to"] as? Double == 3 && report["seconds"] as? Double == 2)
        #expect(report["end"] as? String == "finished" && report["underruns"] as? Int == 0)
        #expect(report["resampled"] as? Bool == false)
        let device = try #require(report["device"] as? [String: Any])
        #expect(device["name"] as? String == speaker.name && device["sampleRate"] as? Int == 16000)
        #expect(speaker.written() == Array(Self.samples[16_000...]))
    }

    @Test func a48kHzFLACOnA16kHzOnlyDeviceIsResampled() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url, fixedRate: 16000)
        let flac = folder.url.appendingPathComponent("tone.flac")
        _ = try runTool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", flac.path, "synth", "2", "sine", "440", "vol", "0.5"])
        let result = try VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
            .run(["play", flac.path, "--device", speaker.name, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["resampled"] as? Bool == true)
        #expect((report["device"] as? [String: Any])?["sampleRate"] as? Int == 16000)
        #expect((report["audio"] as? [String: Any])?["sampleRate"] as? Int == 48000)
        // Stereo asked, and the plug layer under the speaker takes two channels: 2 s at 16 kHz.
        #expect(abs(speaker.written().count - 64_000) <= 2)
    }

    @Test func filesThatCannotBePlayedAreOneLineAndExit1() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
        let text = folder.url.appendingPathComponent("notes.txt")
        try Data("not audio at all".utf8).write(to: text)
        let empty = folder.url.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        for (path, words) in [(folder.url.appendingPathComponent("gone.wav").path, "no such file"), (text.path, "not audio"),
                              (empty.path, "empty file"), (folder.url.path, "a folder")] {
            let result = try binary.run(["play", path, "--device", speaker.name])
            #expect(result.status == 1, "\(path): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words), "\(result.stderr)")
        }
        #expect(speaker.bytesWritten() == 0)
    }

    @Test func anUnknownDeviceExits3WithALSAsWordsAndWhereToLook() throws {
        let folder = try TemporaryFolder()
        let result = try VoicejournalBinary(home: folder.path("home")).run(["play", try wav(in: folder).path, "--device", "no-such-speaker"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("no-such-speaker") && result.stderr.contains("No such file or directory"))
        #expect(result.stderr.contains("voicejournal devices --playback"))
    }

    @Test(arguments: [["--at", "5"], ["--at", "4:61"], ["--at", "-1"], ["--at", "2", "--to", "1"], ["--to", "abc"]])
    func timesThatCannotBeAreUsageMistakes(times: [String]) throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let result = try VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
            .run(["play", try wav(in: folder).path, "--device", speaker.name] + times)
        #expect(result.status == 2, "\(times): \(result.stderr)")
        #expect(speaker.bytesWritten() == 0)
    }

    @Test func nothingOrTwoThingsToPlayAreUsageMistakes() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        #expect(try binary.run(["play"]).status == 2)
        #expect(try binary.run(["play", "3", "--recording", "4"]).status == 2)
        #expect(try binary.run(["play", "--search", " "]).status == 2)
        _ = try binary.run(["entry", "add", "--text", "typed, not spoken"])
        for missing in [["999"], ["--recording", "5"], ["--assignment", "3"]] {
            let result = try binary.run(["play"] + missing)
            #expect(result.status == 2 && result.stderr.contains("there is no"), "\(missing): \(result.stderr)")
        }
        let typed = try binary.run(["play", "1"])
        #expect(typed.status == 1 && typed.stderr.contains("typed"), "\(typed.stderr)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsPlaybackAndExits130(signal: Int32) async throws {
        // The speaker's file is a FIFO nobody reads: the player blocks as on a sound card.
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        #expect(mkfifo(speaker.outfile.path, 0o600) == 0)
        let fifo = Glibc.open(speaker.outfile.path, O_RDONLY | O_NONBLOCK)
        defer { Glibc.close(fifo) }
        let running = try VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
            .start(["play", try wav(in: folder).path, "--device", speaker.name, "--json"])
        try await Task.sleep(for: .milliseconds(700))
        running.signal(signal)
        let result = running.wait()
        #expect(result.status == 130, "\(result.stderr)")
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["end"] as? String == "interrupted")
    }
}
