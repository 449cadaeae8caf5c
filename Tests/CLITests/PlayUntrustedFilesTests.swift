import Foundation
import Testing
import VoiceJournalTestSupport

/// `play` meets files that changed under the journal, or were never what they said: each gets
/// one line that says what it is, the right exit status, and nothing reaches the speaker.
@Suite(.onTestThreads) struct PlayUntrustedFilesTests {
    /// `seconds` of a 440 Hz tone, 16 kHz mono WAV, at `url`.
    static func tone(_ url: URL, seconds: Double, frequency: Int = 440) throws -> URL {
        _ = try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", url.path, "synth", String(seconds), "sine", String(frequency)])
        return url
    }

    /// A journal holding one transcribed recording (#1) of `file` (a voice-like tone, so it is
    /// sent), through the stub server.
    static func stored(_ file: URL, in harness: TranscribeHarness) throws {
        try harness.succeed(["transcribe", file.path])
        let rows = try queryDatabase(harness.database, "SELECT id FROM recording")
        #expect(rows.count == 1)
    }

    @Test func aRecordingReplacedByAnotherWAVIsNotPlayedUnderTheOldTranscript() throws {
        let harness = try TranscribeHarness()
        let file = try makeTone(at: harness.folder.path("take.wav"), seconds: 2)
        try Self.stored(file, in: harness)
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        // Touched, same bytes: played.
        let touched = try harness.binary.run(["play", "--recording", "1", "--device", speaker.name], environment: speaker.environment)
        #expect(touched.status == 0, "\(touched.stderr)")
        _ = try runTool("touch", ["-d", "2020-01-01", file.path])
        let same = try harness.binary.run(["play", "--recording", "1", "--device", speaker.name], environment: speaker.environment)
        #expect(same.status == 0, "a file only touched holds the same audio: \(same.stderr)")
        // Another WAV of the same length in its place: refused, nothing played.
        let other = try makeTone(at: harness.folder.path("other.wav"), seconds: 2, frequency: 880)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: other, to: file)
        let speaker2 = try VirtualSpeaker(in: harness.folder.url, name: "testspk2")
        for arguments in [["play", "--recording", "1"], ["search", "transcript", "--play"], ["play", "--search", "transcript"]] {
            let result = try harness.binary.run(arguments + ["--device", speaker2.name], environment: speaker2.environment)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("no longer holds the audio of recording #1"), "\(result.stderr)")
        }
        #expect(speaker2.bytesWritten() == 0)
        // Played by its path, it is just a file.
        let byPath = try harness.binary.run(["play", file.path, "--device", speaker2.name], environment: speaker2.environment)
        #expect(byPath.status == 0, "\(byPath.stderr)")
    }

    @Test func aLoopOfSymbolicLinksInARecordingsPlaceIsSaidAsALoop() throws {
        let harness = try TranscribeHarness()
        let file = try makeTone(at: harness.folder.path("loop.wav"), seconds: 1)
        try Self.stored(file, in: harness)
        try FileManager.default.removeItem(at: file)
        let other = harness.folder.path("loop2.wav")
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: other)
        try FileManager.default.createSymbolicLink(at: other, withDestinationURL: file)
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        let result = try harness.binary.run(["play", "--recording", "1", "--device", speaker.name], environment: speaker.environment)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("a loop of symbolic links") && !result.stderr.contains("no such file"), "\(result.stderr)")
    }

    @Test func toZeroPlaysNothingAndIsAUsageMistake() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let file = try Self.tone(folder.path("take.wav"), seconds: 1)
        let result = try VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
            .run(["play", file.path, "--device", speaker.name, "--to", "0"])
        #expect(result.status == 2 && result.stderr.contains("--to 0 plays nothing"), "\(result.stderr)")
        #expect(speaker.bytesWritten() == 0)
    }

    @Test func anAtJustPastTheEndSaysBothTimesApart() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let file = try Self.tone(folder.path("take.wav"), seconds: 5.8)
        let result = try VoicejournalBinary(home: folder.path("home"), environment: speaker.environment)
            .run(["play", file.path, "--device", speaker.name, "--at", "5.81"])
        #expect(result.status == 2)
        #expect(result.stderr == "voicejournal: --at 00:05.81 is past the end of take.wav (00:05.8 long)\n", "\(result.stderr)")
    }

    @Test func aWAVDeclaringARateNoAudioHasIsRefusedBeforeAnyDevice() throws {
        let folder = try TemporaryFolder()
        let file = try Self.tone(folder.path("fast.wav"), seconds: 1)
        // The fmt chunk's sample rate (bytes 24–27) and byte rate (28–31) set to 2^31 Hz.
        var bytes = try Data(contentsOf: file)
        bytes.replaceSubrange(24..<28, with: [0, 0, 0, 0x80])
        bytes.replaceSubrange(28..<32, with: [0, 0, 0, 0x80])
        try bytes.write(to: file)
        // A device that does not exist: had it been opened first, its error would be the one said.
        let result = try VoicejournalBinary(home: folder.path("home")).run(["play", file.path, "--device", "no-such-speaker"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("not audio") && result.stderr.contains("2147483648 Hz") && !result.stderr.contains("no-such-speaker"),
                "\(result.stderr)")
    }
}
