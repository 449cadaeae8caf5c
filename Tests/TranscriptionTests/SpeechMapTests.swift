import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct SpeechMapTests {
    /// Bursts of voice of `burst` seconds separated by `gap` seconds of noise, after `lead` seconds of it.
    static func bursts(count: Int, burst: Double, gap: Double, lead: Double,
                       noise: (Double, Double) = (-70, -70)) -> (signal: SyntheticSignal, starts: [Double]) {
        var signal = SyntheticSignal()
        var starts: [Double] = []
        let total = lead + Double(count) * (burst + gap)
        func noiseLevel(at time: Double) -> Double { noise.0 + (noise.1 - noise.0) * time / total }
        signal.noise(seconds: lead, from: noiseLevel(at: 0), to: noiseLevel(at: lead))
        for _ in 0..<count {
            starts.append(signal.seconds)
            signal.voice(seconds: burst, noiseDBFS: noiseLevel(at: signal.seconds))
            signal.noise(seconds: gap, from: noiseLevel(at: signal.seconds), to: noiseLevel(at: signal.seconds + gap))
        }
        return (signal, starts)
    }

    static func map(_ samples: [Float]) -> SpeechMap {
        var map = SpeechMap(sampleRate: SyntheticSignal.rate)
        map.append(samples)
        return map
    }

    @Test func findsVoiceBurstsBetweenQuietNoise() {
        let (signal, starts) = Self.bursts(count: 5, burst: 2, gap: 1, lead: 3)
        let map = Self.map(signal.samples)
        let speech = map.speechIntervals
        #expect(speech.count == 5)
        for (found, start) in zip(speech, starts) {
            #expect(abs(found.lowerBound - start) < 0.05)
            #expect(abs(found.upperBound - (start + 2)) < 0.05)
        }
        #expect(map.pauseIntervals.count == 4)
        #expect(map.pauseIntervals.allSatisfy { abs(($0.upperBound - $0.lowerBound) - 1) < 0.1 })
        #expect(abs((map.firstSpeechSeconds ?? 0) - 3) < 0.05)
        #expect(abs((map.lastSpeechSeconds ?? 0) - 17) < 0.05)
        #expect(abs(map.durationSeconds - 18) < 0.001)
    }

    @Test func adaptiveFloorStillFindsPausesWhenTheNoiseRises() {
        // The room gets 25 dB louder over a minute; a fixed threshold that suits the start
        // would hear the end as one long stretch of speech.
        let (signal, starts) = Self.bursts(count: 24, burst: 1.5, gap: 1, lead: 1, noise: (-72, -47))
        let map = Self.map(signal.samples)
        let speech = map.speechIntervals
        #expect(speech.count == starts.count)
        for (found, start) in zip(speech, starts) {
            #expect(abs(found.lowerBound - start) < 0.1)
        }
        #expect(map.pauseIntervals.allSatisfy { $0.upperBound - $0.lowerBound > 0.8 })
    }

    @Test func shortGapsInsideWordsAreNotPauses() {
        var signal = SyntheticSignal()
        signal.silence(seconds: 1)
        for _ in 0..<6 {
            signal.voice(seconds: 0.3)
            signal.noise(seconds: 0.08, from: -70)
        }
        signal.silence(seconds: 1)
        let map = Self.map(signal.samples)
        #expect(map.speechIntervals.count == 1)
        #expect(map.pauseIntervals.isEmpty)
    }

    @Test func aClickIsNotSpeech() {
        var signal = SyntheticSignal()
        signal.noise(seconds: 2, from: -75)
        signal.tone(seconds: 0.02, dbfs: -10)
        signal.noise(seconds: 2, from: -75)
        let map = Self.map(signal.samples)
        #expect(map.speechIntervals.isEmpty)
        #expect(map.speechExtent == .silent)
    }

    @Test func aSteadyToneIsAHumNotSpeech() {
        var signal = SyntheticSignal()
        signal.noise(seconds: 2, from: -70)
        signal.tone(seconds: 5, dbfs: -20, noiseDBFS: -70)
        signal.noise(seconds: 2, from: -70)
        #expect(Self.map(signal.samples).speechIntervals.isEmpty)
        // Judged by loudness alone it would be speech.
        var energyOnly = SpeechMap(sampleRate: SyntheticSignal.rate, settings: SpeechMap.Settings(requiresVoice: false))
        energyOnly.append(signal.samples)
        #expect(energyOnly.speechIntervals.count == 1)
    }

    @Test func silenceAndQuietNoiseHoldNoSpeech() {
        var signal = SyntheticSignal()
        signal.silence(seconds: 5)
        signal.noise(seconds: 30, from: -80, to: -58)
        let map = Self.map(signal.samples)
        #expect(map.speechIntervals.isEmpty)
        #expect(map.firstSpeechSeconds == nil && map.lastSpeechSeconds == nil)
    }

    @Test func unbrokenLoudVoiceIsSpeechNotNoise() {
        // Nothing quieter to compare with: the floor's ceiling keeps it speech.
        var signal = SyntheticSignal()
        signal.voice(seconds: 30, dbfs: -25)
        let speech = Self.map(signal.samples).speechIntervals
        #expect(speech.count == 1)
        #expect(abs((speech.first?.upperBound ?? 0) - 30) < 0.05)
    }

    @Test(arguments: [1, 317, 4096, 16_000])
    func streamingInPiecesGivesTheSameMap(pieceLength: Int) {
        let (signal, _) = Self.bursts(count: 4, burst: 1, gap: 0.7, lead: 2)
        var streamed = SpeechMap(sampleRate: SyntheticSignal.rate)
        var index = 0
        while index < signal.samples.count {
            let end = min(index + pieceLength, signal.samples.count)
            signal.samples[index..<end].withUnsafeBufferPointer { streamed.append($0) }
            index = end
        }
        let whole = Self.map(signal.samples)
        #expect(streamed.speechRanges == whole.speechRanges)
        #expect(streamed.sampleCount == Int64(signal.samples.count))
    }

    @Test func readingTheMapMidStreamDoesNotChangeIt() {
        let (signal, _) = Self.bursts(count: 6, burst: 1, gap: 1, lead: 1)
        var map = SpeechMap(sampleRate: SyntheticSignal.rate)
        let half = signal.samples.count / 2
        map.append(Array(signal.samples[..<half]))
        _ = map.speechRanges
        map.append(Array(signal.samples[half...]))
        #expect(map.speechRanges == Self.map(signal.samples).speechRanges)
    }

    @Test func holdsOnlyItsFloorWindowWhateverTheLength() {
        var map = SpeechMap(sampleRate: SyntheticSignal.rate)
        let (signal, _) = Self.bursts(count: 10, burst: 1, gap: 1, lead: 0)
        for _ in 0..<30 { map.append(signal.samples) } // 10 minutes
        #expect(map.speechRanges.count == 300)
        // 20 s of 20 ms frames is 1000; batches of 4096 are dropped at a time.
        #expect(map.storedFrameCount < 6_000)
        #expect(map.sampleCount == Int64(signal.samples.count * 30))
    }
}
