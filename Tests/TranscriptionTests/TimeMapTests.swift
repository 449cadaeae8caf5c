import Foundation
import Testing
@testable import VoiceJournalTranscription

/// Speech-only uploads: which pieces are kept, and how answer times go back to the recording.
@Suite struct TimeMapTests {
    let rate = 16_000
    func samples(_ seconds: Double) -> Int64 { Int64((seconds * Double(rate)).rounded()) }
    func range(_ from: Double, _ to: Double) -> Range<Int64> { samples(from)..<samples(to) }

    @Test func longPausesKeepOnlyTheirEdgesAndShortOnesStayWhole() {
        let speech = [range(2, 4), range(4.5, 6), range(20, 22)]
        let pieces = PauseShortening(edgeSeconds: 0.2).pieces(of: 0..<samples(30), speech: speech, sampleRate: rate)
        // 0.5 s between the first two stretches is part of the sentence; 14 s is cut to 0.4 s.
        #expect(pieces == [range(1.8, 6.2), range(19.8, 22.2)])
    }

    @Test func aChunkWithLittleToLeaveOutIsSentWhole() {
        let chunk = AudioChunk(startSample: samples(1.8), endSample: samples(6.2), sampleRate: rate)
        let shortened = PauseShortening(edgeSeconds: 0.2).shortened(chunk, speech: [range(2, 4), range(5.2, 6)])
        #expect(shortened.pieces == nil)
        #expect(shortened.speech == [range(2, 4), range(5.2, 6)])
        #expect(shortened.timeMap.isWhole)
    }

    @Test func answerTimesGoBackToTheRecordingsClock() throws {
        let chunk = AudioChunk(startSample: samples(10), endSample: samples(60), sampleRate: rate)
        let shortened = PauseShortening(edgeSeconds: 0.2).shortened(chunk, speech: [range(12, 15), range(30, 31.5), range(50, 52)])
        let map = shortened.timeMap
        // Pieces on the chunk's own clock (10 s is its 0): 1.8–5.2, 19.8–21.7, 39.8–42.2.
        #expect(map.pieces.count == 3)
        #expect(abs(map.sentSeconds - (3.4 + 1.9 + 2.4)) < 1e-6)
        // Upload 0.2 s = chunk 2.0 s (the recording's 12.0 s); upload 3.6 s = chunk 20.0 s.
        #expect(abs(map.original(0.2) - 2.0) < 1e-6)
        #expect(abs(map.original(3.6) - 20.0) < 1e-6)
        // At the seam: an end belongs to the earlier piece, a start to the later.
        #expect(abs(map.original(3.4, isEnd: true) - 5.2) < 1e-6)
        #expect(abs(map.original(3.4) - 19.8) < 1e-6)
        #expect(abs(map.upload(20.0) - 3.6) < 1e-6)
        // A time in a cut pause is where the pause's kept part joins.
        #expect(abs(map.upload(10.0) - 3.4) < 1e-6)
        let segment = TranscriptionResult.Segment(start: 3.6, end: 5.1, text: " hello", words: [.init(start: 3.6, end: 4.0, word: "hello")])
        let mapped = try #require(segment.mapped(through: map).first)
        #expect(abs(mapped.start - 20.0) < 1e-6 && abs(mapped.end - 21.5) < 1e-6)
        #expect(abs((mapped.words?.first?.end ?? 0) - 20.4) < 1e-6)
        let decoded = try #require(TimeMap(json: map.json))
        #expect(decoded == map)
    }
}
