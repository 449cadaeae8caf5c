import Foundation
import Testing
@testable import VoiceJournalTranscription

/// Where a recording in progress is cut: the speech so far is given as it grows.
@Suite struct LivePieceCutterTests {
    static let rate = 16_000
    static func samples(_ seconds: Double) -> Int64 { ChunkPlannerTests.samples(seconds) }
    let cutter = LivePieceCutter()

    func next(_ speech: [Range<Int64>], cursor: Double = 0, at seconds: Double) -> AudioChunk? {
        cutter.nextPiece(speech: speech, cursor: Self.samples(cursor), sampleCount: Self.samples(seconds), sampleRate: Self.rate)
    }

    @Test func waitsForFifteenSecondsThenCutsAtTheFirstHalfSecondPause() {
        // Sentences with pauses of 0.4 s (too short) and 0.7 s; speech from 1 s.
        let speech = ChunkPlannerTests.speech(1, 40, pauses: [(5, 0.7), (12, 0.7), (16.5, 0.4), (18, 0.7), (24, 0.7)])
        // The pauses at 5 and 12 s come before the piece is 15 s long.
        #expect(next(speech, at: 15) == nil)
        // Before the pause at 18 s has lasted half a second, nothing is cut...
        #expect(next(Array(speech.prefix(4)), at: 18.3) == nil)
        // ...once it has, the piece ends a padding after the speech; the 0.4 s pause is skipped.
        let piece = next(speech, at: 19)
        #expect(ChunkPlannerTests.isApproximately(piece?.startSeconds, 0.75))
        #expect(ChunkPlannerTests.isApproximately(piece?.endSeconds, 18.25))
    }

    @Test func theSilenceAfterTheLatestWordIsAPauseAsSoonAsItIsLongEnough() {
        // Speech from 0 to 16 s, and 0.6 s of quiet measured since.
        let speech = [Self.samples(0)..<Self.samples(16)]
        #expect(next(speech, at: 16.4) == nil)
        #expect(ChunkPlannerTests.isApproximately(next(speech, at: 16.6)?.endSeconds, 16.25))
    }

    @Test func unbrokenSpeechIsCutAtThirtySecondsInTheBestPauseNearTheEnd() {
        // Only pauses of 0.3 s: no pause ends a piece, so it waits for 30 s.
        let speech = ChunkPlannerTests.speech(0, 60, pauses: [(10, 0.3), (22, 0.3), (27, 0.3)])
        #expect(next(speech, at: 30) == nil)
        let piece = next(speech, at: 31)
        #expect(piece?.startSample == 0)
        // The planner's window (the last 35 % before 30 s) holds the pauses at 22 and 27 s: the later one wins a tie.
        #expect(ChunkPlannerTests.isApproximately(piece?.endSeconds, 27.15))
    }

    @Test func theNextPieceStartsAtTheCursorAndSkipsTheSilenceBeforeIt() {
        let speech = [Self.samples(0)..<Self.samples(16), Self.samples(20)..<Self.samples(37)]
        let piece = next(speech, cursor: 16.25, at: 37.6)
        #expect(ChunkPlannerTests.isApproximately(piece?.startSeconds, 19.75))
        #expect(ChunkPlannerTests.isApproximately(piece?.endSeconds, 37.25))
    }

    @Test func theLastPiecesCoverTheRestAndNothingBeforeTheCursor() {
        let speech = [Self.samples(0)..<Self.samples(16), Self.samples(16.5)..<Self.samples(20)]
        let last = cutter.lastPieces(speech: speech, cursor: Self.samples(16.25), sampleCount: Self.samples(21), sampleRate: Self.rate)
        #expect(last.count == 1)
        #expect(ChunkPlannerTests.isApproximately(last.first?.startSeconds, 16.25))
        #expect(ChunkPlannerTests.isApproximately(last.first?.endSeconds, 20.25))
        #expect(cutter.lastPieces(speech: speech, cursor: Self.samples(20.5), sampleCount: Self.samples(21), sampleRate: Self.rate).isEmpty)
    }
}
