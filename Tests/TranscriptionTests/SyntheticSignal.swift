import Foundation
import VoiceJournalTestSupport

/// Test signals at 16 kHz: a synthetic voice standing in for speech, tones, white noise at a
/// chosen level, silence; with a seeded generator so every run hears the same noise.
struct SyntheticSignal {
    static let rate = 16_000
    private(set) var samples: [Float] = []
    private var generator = SplitMix(seed: 9)

    var seconds: Double { Double(samples.count) / Double(Self.rate) }

    /// A synthetic voice (`SyntheticVoice`) whose RMS is `dbfs`, over noise at `noiseDBFS` (nil: none).
    mutating func voice(seconds: Double, dbfs: Double = -20, noiseDBFS: Double? = nil) {
        for sample in SyntheticVoice.samples(seconds: seconds, sampleRate: Self.rate, dbfs: dbfs) {
            samples.append(sample + (noiseDBFS.map { noiseSample(dbfs: $0) } ?? 0))
        }
    }

    /// A steady 440 Hz tone (a hum to the map, not speech) whose RMS is `dbfs`, over noise at
    /// `noiseDBFS` (nil: none).
    mutating func tone(seconds: Double, dbfs: Double = -20, noiseDBFS: Double? = nil) {
        let amplitude = pow(10, dbfs / 20) * 2.squareRoot()
        let count = Int(seconds * Double(Self.rate))
        for index in 0..<count {
            let phase = 2 * Double.pi * 440 * Double(index) / Double(Self.rate)
            samples.append(Float(amplitude * sin(phase)) + (noiseDBFS.map { noiseSample(dbfs: $0) } ?? 0))
        }
    }

    /// White noise whose RMS moves linearly from `from` to `to` dBFS.
    mutating func noise(seconds: Double, from: Double, to: Double? = nil) {
        let count = Int(seconds * Double(Self.rate))
        for index in 0..<count {
            let level = from + ((to ?? from) - from) * Double(index) / Double(max(count, 1))
            samples.append(noiseSample(dbfs: level))
        }
    }

    mutating func silence(seconds: Double) {
        samples += [Float](repeating: 0, count: Int(seconds * Double(Self.rate)))
    }

    /// Uniform noise in ±a has an RMS of a/√3.
    private mutating func noiseSample(dbfs: Double) -> Float {
        let amplitude = pow(10, dbfs / 20) * 3.squareRoot()
        return Float(amplitude * (generator.unit() * 2 - 1))
    }
}

/// A small seeded generator (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
