import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct ChunkPlannerTests {
    static let rate = 16_000

    static func samples(_ seconds: Double) -> Int64 { Int64((seconds * Double(rate)).rounded()) }

    /// Speech from `start` to `end` seconds, broken by the given pauses (start, length).
    static func speech(_ start: Double, _ end: Double, pauses: [(Double, Double)] = []) -> [Range<Int64>] {
        var ranges: [Range<Int64>] = []
        var from = start
        for (pauseStart, length) in pauses.sorted(by: { $0.0 < $1.0 }) {
            ranges.append(samples(from)..<samples(pauseStart))
            from = pauseStart + length
        }
        ranges.append(samples(from)..<samples(end))
        return ranges
    }

    static func plan(_ speech: [Range<Int64>], seconds: Double, max: Double = 100, trim: Bool = true) -> [AudioChunk] {
        ChunkPlanner(maxChunkSeconds: max, trim: trim)
            .chunks(speech: speech, sampleCount: samples(seconds), sampleRate: rate)
    }

    static func isApproximately(_ value: Double?, _ expected: Double, within tolerance: Double = 0.001) -> Bool {
        guard let value else { return false }
        return abs(value - expected) <= tolerance
    }

    @Test func cutsInTheMiddleOfTheLongestPauseInsideTheWindow() {
        // The 2 s pause at 50 s is longer but outside the window (65–100 s).
        let speech = Self.speech(0, 130, pauses: [(50, 2), (70, 0.4), (80, 1.2), (95, 0.8)])
        let whole = Self.plan(speech, seconds: 130, trim: false)
        #expect(whole.count == 2)
        #expect(Self.isApproximately(whole.first?.endSeconds, 80.6))
        #expect(Self.isApproximately(whole.last?.startSeconds, 80.6))
        // Trimmed, each side keeps its padding of the pause and no more.
        let trimmed = Self.plan(speech, seconds: 130)
        #expect(Self.isApproximately(trimmed.first?.endSeconds, 80.25))
        #expect(Self.isApproximately(trimmed.last?.startSeconds, 80.95))
    }

    @Test func neverCutsBetweenWordsWhenAThirdOfASecondPauseExists() {
        // Only 0.1 s gaps between words in the window; a 0.35 s pause earlier in the chunk wins.
        let wordGaps = stride(from: 66.0, to: 100, by: 2).map { ($0, 0.1) }
        let chunks = Self.plan(Self.speech(0, 150, pauses: wordGaps + [(40, 0.35)]), seconds: 150, trim: false)
        #expect(Self.isApproximately(chunks.first?.endSeconds, 40.175))
        // A 0.3 s pause in the window beats the longer one earlier.
        let inWindow = Self.plan(Self.speech(0, 150, pauses: wordGaps + [(40, 0.5), (77.5, 0.3)]), seconds: 150, trim: false)
        #expect(Self.isApproximately(inWindow.first?.endSeconds, 77.65))
    }

    @Test func fallsBackToTheLongestShortPauseThenToAHardCutAtTheLimit() {
        let wordGaps = stride(from: 5.0, to: 150, by: 5).map { (start: Double) -> (Double, Double) in (start, start == 90 ? 0.2 : 0.1) }
        let chunks = Self.plan(Self.speech(0, 150, pauses: wordGaps), seconds: 150, trim: false)
        #expect(Self.isApproximately(chunks.first?.endSeconds, 90.1))
        let unbroken = Self.plan(Self.speech(0, 250), seconds: 250)
        #expect(unbroken.map(\.startSeconds) == [0, 100, 200])
        #expect(unbroken.map(\.endSeconds) == [100, 200, 250])
    }

    @Test func leavesOutLeadingAndTrailingSilenceUnlessAskedNotTo() {
        let speech = Self.speech(60, 70)
        #expect(Self.plan(speech, seconds: 100) == [
            AudioChunk(startSample: Self.samples(59.75), endSample: Self.samples(70.25), sampleRate: Self.rate),
        ])
        #expect(Self.plan(speech, seconds: 100, trim: false) == [
            AudioChunk(startSample: 0, endSample: Self.samples(100), sampleRate: Self.rate),
        ])
    }

    @Test(arguments: [true, false])
    func silenceAlonePlansNoChunks(trim: Bool) {
        #expect(Self.plan([], seconds: 3600, trim: trim).isEmpty)
        var map = SpeechMap(sampleRate: Self.rate)
        map.append([Float](repeating: 0, count: Self.rate * 30))
        #expect(ChunkPlanner(maxChunkSeconds: 10, trim: trim).chunks(for: map).isEmpty)
    }

    @Test func aMinuteOfSilenceBeforeSpeechIsNotSent() {
        let pauses = stride(from: 70.0, to: 1500, by: 10).map { ($0, 0.6) }
        let chunks = Self.plan(Self.speech(60, 1500, pauses: pauses), seconds: 1530, max: 600)
        #expect(Self.isApproximately(chunks.first?.startSeconds, 59.75))
        #expect(Self.isApproximately(chunks.last?.endSeconds, 1500.25))
        #expect(chunks.count == 3)
    }

    @Test func aLongPauseInsideTheRecordingIsNotSent() {
        let chunks = Self.plan(Self.speech(0, 10) + Self.speech(100, 110), seconds: 120, max: 600)
        #expect(chunks.map(\.startSeconds) == [0, 99.75])
        #expect(chunks.map(\.endSeconds) == [10.25, 110.25])
    }

    @Test func withoutTrimmingAStretchOfSilenceStillSendsNoSilentChunk() {
        let chunks = Self.plan(Self.speech(0, 10) + Self.speech(300, 310), seconds: 400, max: 60, trim: false)
        let speech = Self.speech(0, 10) + Self.speech(300, 310)
        #expect(chunks.count == 2)
        #expect(chunks.allSatisfy { chunk in speech.contains { $0.overlaps(chunk.startSample..<chunk.endSample) } })
    }

    @Test func noCutLeavesATinyPieceAtTheEnd() {
        // Cutting in the longest pause (at 99.5 s) would leave half a second on its own.
        let chunks = Self.plan(Self.speech(0, 100.5, pauses: [(80, 0.4), (99.5, 0.5)]), seconds: 100.5)
        #expect(chunks.count == 2)
        #expect(Self.isApproximately(chunks.first?.endSeconds, 80.2))
    }

    @Test func cutsTheBurstsOfARealSignalInTheirGaps() {
        let (signal, starts) = SpeechMapTests.bursts(count: 8, burst: 2, gap: 1, lead: 5)
        var map = SpeechMap(sampleRate: Self.rate)
        map.append(signal.samples)
        let chunks = ChunkPlanner(maxChunkSeconds: 7, minChunkSeconds: 1).chunks(for: map)
        #expect(abs((chunks.first?.startSeconds ?? 0) - 4.75) < 0.05)
        for chunk in chunks {
            // Each boundary lies in a gap: never inside a burst.
            #expect(!starts.contains { $0 + 0.05 < chunk.endSeconds && chunk.endSeconds < $0 + 1.95 })
            #expect(!starts.contains { $0 + 0.05 < chunk.startSeconds && chunk.startSeconds < $0 + 1.95 })
        }
    }

    /// Random recordings: words of 0.2–3 s, gaps of 0.02–2 s, now and then a long silence.
    static func randomSpeech(seed: UInt64) -> (speech: [Range<Int64>], seconds: Double) {
        var generator = SplitMix(seed: seed)
        var ranges: [Range<Int64>] = []
        var time = generator.unit() * 20
        while time < 1800 {
            let length = 0.2 + generator.unit() * 2.8
            ranges.append(samples(time)..<samples(time + length))
            let roll = generator.unit()
            time += length + (roll < 0.6 ? 0.02 + roll * 0.3 : roll < 0.98 ? roll * 2 : 40 + roll * 60)
        }
        return (ranges, time + generator.unit() * 20)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6], [true, false])
    func chunksAreShortOrderedCoverAllSpeechAndCutSpeechOnlyWhenNoPauseExists(seed: UInt64, trim: Bool) {
        let (speech, seconds) = Self.randomSpeech(seed: seed)
        let planner = ChunkPlanner(maxChunkSeconds: 90, trim: trim)
        let chunks = planner.chunks(speech: speech, sampleCount: Self.samples(seconds), sampleRate: Self.rate)
        #expect(!chunks.isEmpty)
        for chunk in chunks {
            #expect(chunk.endSample > chunk.startSample)
            #expect(chunk.durationSeconds <= 90)
            #expect(speech.contains { $0.overlaps(chunk.startSample..<chunk.endSample) })
        }
        for (earlier, later) in zip(chunks, chunks.dropFirst()) {
            #expect(earlier.endSample <= later.startSample)
        }
        // Every sample of speech goes in some chunk.
        for range in speech {
            let covered = chunks.filter { $0.startSample < range.upperBound && range.lowerBound < $0.endSample }
                .reduce(Int64(0)) { $0 + min($1.endSample, range.upperBound) - max($1.startSample, range.lowerBound) }
            #expect(covered == Int64(range.count))
        }
        // A chunk ends inside speech only when it held no pause of 0.3 s after its first 2 s.
        for chunk in chunks.dropLast() {
            guard speech.contains(where: { $0.lowerBound < chunk.endSample && chunk.endSample < $0.upperBound })
            else { continue }
            let gaps = zip(speech, speech.dropFirst()).map { $0.upperBound..<$1.lowerBound }
            let usable = gaps.contains { gap in
                gap.count >= Int(Self.samples(0.3)) && gap.lowerBound >= chunk.startSample + Self.samples(2)
                    && gap.upperBound <= chunk.endSample
            }
            #expect(!usable)
        }
    }
}
