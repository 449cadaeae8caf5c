import Foundation
import Testing
@testable import VoiceJournalTranscription

/// Words at the seams between chunks and live pieces: a word is heard twice only where a cut
/// went through speech (or two chunks claim the same time), and only there is a repeat dropped.
@Suite struct ChunkSeamTests {
    typealias Segment = TranscriptionResult.Segment
    static let rate = 16_000
    static func samples(_ seconds: Double) -> Int64 { ChunkPlannerTests.samples(seconds) }

    static func chunk(_ start: Double, _ end: Double, _ text: String, startsInSpeech: Bool = false,
                      segmentEnd: Double? = nil) -> ChunkTranscript {
        ChunkTranscript(startSeconds: start, endSeconds: end, startsInSpeech: startsInSpeech, result: TranscriptionResult(
            text: text, language: "english",
            segments: [Segment(start: 0, end: segmentEnd ?? (end - start), text: " " + text)], model: "whisper-1"))
    }

    @Test(arguments: [
        ("We are done, okay.", "Okay, so we begin.", "We are done, okay. Okay, so we begin."),
        ("one, two, three,", "three, four, five.", "one, two, three, three, four, five."),
        ("la la la", "la la la", "la la la la la la"),
    ])
    func aSeamInAPauseKeepsWordsSaidOnBothSidesOfIt(before: String, after: String, expected: String) {
        let stitched = TranscriptStitcher.stitch([Self.chunk(0, 10, before), Self.chunk(11, 20, after)])
        #expect(stitched.text == expected)
        #expect(stitched.segments.map(\.text) == [" " + before, " " + after])
    }

    @Test func aCutThroughSpeechDropsTheWordsHeardOnBothSides() {
        let stitched = TranscriptStitcher.stitch([Self.chunk(0, 30, "and then we went home"),
                                                  Self.chunk(30, 45, "home, after that we slept.", startsInSpeech: true)])
        #expect(stitched.text == "and then we went home after that we slept.")
        #expect(stitched.segments.map(\.text) == [" and then we went home", " after that we slept."])
    }

    @Test func segmentsClaimingTheSameTimeAreDeduplicatedWhateverTheCut() {
        // The second chunk starts before the first one's audio ends: the same words, heard twice.
        let stitched = TranscriptStitcher.stitch([Self.chunk(0, 10, "we went home"), Self.chunk(9.5, 20, "home again")])
        #expect(stitched.text == "we went home again")
    }

    @Test func timesTheModelPlacedPastItsChunkAreNoOverlap() {
        // Whisper often says the last segment runs to a round time past the audio it was sent.
        let stitched = TranscriptStitcher.stitch([Self.chunk(0, 10, "okay.", segmentEnd: 12),
                                                  Self.chunk(10.2, 20, "Okay, so.")])
        #expect(stitched.text == "okay. Okay, so.")
    }

    @Test func thePlannerMarksOnlyCutsThroughSpeech() {
        // Sentences with a clear pause: every cut falls in one.
        let paused = ChunkPlanner(maxChunkSeconds: 10).chunks(
            speech: ChunkPlannerTests.speech(0, 40, pauses: [(8, 1), (17, 1), (26, 1), (35, 1)]),
            sampleCount: Self.samples(40), sampleRate: Self.rate)
        #expect(paused.count > 1)
        #expect(paused.allSatisfy { !$0.startsInSpeech })
        // Unbroken speech is cut hard at the limit: each later chunk starts in speech.
        for trim in [true, false] {
            let unbroken = ChunkPlanner(maxChunkSeconds: 10, trim: trim).chunks(
                speech: [0..<Self.samples(35)], sampleCount: Self.samples(35), sampleRate: Self.rate)
            #expect(unbroken.count == 4)
            #expect(unbroken.map(\.startsInSpeech) == [false, true, true, true])
        }
    }

    @Test func livePiecesAreMarkedWhereTheyContinueUnbrokenSpeech() throws {
        let cutter = LivePieceCutter()
        // A pause of 0.7 s after 16 s of speech ends the first piece; the next starts after it.
        let paused = [Self.samples(0)..<Self.samples(16), Self.samples(16.7)..<Self.samples(40)]
        let first = cutter.nextPiece(speech: paused, cursor: 0, sampleCount: Self.samples(17), sampleRate: Self.rate)
        #expect(first?.startsInSpeech == false)
        let afterPause = cutter.lastPieces(speech: paused, cursor: try #require(first).endSample,
                                           sampleCount: Self.samples(40), sampleRate: Self.rate)
        #expect(afterPause.first?.startsInSpeech == false)

        // A minute of unbroken speech: the piece is cut at 30 s, and the next continues it.
        let unbroken = [Self.samples(0)..<Self.samples(60)]
        let hard = try #require(cutter.nextPiece(speech: unbroken, cursor: 0, sampleCount: Self.samples(31), sampleRate: Self.rate))
        #expect(hard.startsInSpeech == false)
        let next = cutter.nextPiece(speech: unbroken, cursor: hard.endSample, sampleCount: Self.samples(61), sampleRate: Self.rate)
        #expect(next?.startSample == hard.endSample)
        #expect(next?.startsInSpeech == true)
        let last = cutter.lastPieces(speech: unbroken, cursor: hard.endSample, sampleCount: Self.samples(60), sampleRate: Self.rate)
        #expect(last.first?.startsInSpeech == true)
    }
}
