import Foundation
import Testing
import TestSupport

/// A long file split into chunks, every chunk answered "Okay.": words said again after a
/// pause stay in the transcript; only a cut through unbroken sound drops the word at the seam.
@Suite struct ChunkSeamCLITests {
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
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file.path, "synth", "14", "sine", "300"])

        try harness.succeed(["transcribe", dir.path, "--max-chunk-seconds", "6"])
        #expect(try harness.server.requests().count >= 3)
        #expect(try harness.transcripts()[file.path]?.text == "Okay.")
    }
}
