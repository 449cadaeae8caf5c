import Foundation
import Testing
import VoiceJournalTestSupport

/// A long file split into chunks, every chunk answered "Okay.": words said again after a
/// pause stay in the transcript; only a cut through unbroken sound drops the word at the seam.
@Suite(.onTestThreads) struct ChunkSeamCLITests {
    @Test func wordsRepeatedAcrossAPauseAtAChunkSeamAreKept() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .says("Okay."))])
        let dir = try LongAudioTests.inputFolder(harness)
        let file = try LongAudioTests.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 8, tone: 1.5, pause: 1)

        try harness.succeed(["transcribe", dir.path, "--max-chunk-seconds", "6"])
        let chunks = try harness.server.requests().count
        #expect(chunks >= 3)
        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.text == Array(repeating: "Okay.", count: chunks).joined(separator: " "))
    }

    @Test func aWordCutInTwoByAHardCutIsKeptOnce() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .says("Okay."))])
        let dir = try LongAudioTests.inputFolder(harness)
        let file = dir.appendingPathComponent("hum.wav")
        // Unbroken voice: no pause to cut in.
        try SyntheticVoice.writeWAV(SyntheticVoice.pcm16(seconds: 14, dbfs: -12, pitchHz: 150), to: file)

        try harness.succeed(["transcribe", dir.path, "--max-chunk-seconds", "6"])
        #expect(try harness.server.requests().count >= 3)
        #expect(try harness.transcripts()[file.path]?.text == "Okay.")
    }
}

/// The same at the seams of a live take's pieces.
@Suite(.onTestThreads) struct LiveSeamTests {
    @Test func wordsRepeatedAcrossAPauseAtAPieceSeamAreKept() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer(rules: [.init(responses: [], then: .says("Okay."))])
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        // Phrases with pauses: the first piece is cut in a pause after 15 s, the rest at the stop.
        let fed = LiveRecordTests.phrases(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed + CaptureFixtures.silence(sampleRate: 16000, seconds: 1),
                                     sampleRate: 16000, channels: 1)
        defer { feeder.stop() }
        let home = folder.path("home")
        let result = try VoicejournalBinary(home: home, environment: microphone.environment.merging([
            "OPENAI_BASE_URL": stub.baseURL]) { $1 })
            .run(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let pieces = try stub.requests().count { LiveRecordTests.piece($0) != nil }
        #expect(pieces >= 2)
        let text = try #require(try CaptureDatabase.rows(home: home, "SELECT text FROM transcript").first?["text"] as? String)
        #expect(text == Array(repeating: "Okay.", count: pieces).joined(separator: " "))
    }
}
