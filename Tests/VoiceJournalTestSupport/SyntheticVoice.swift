import Foundation

/// A stand-in for a voice that a speech map hears as one, made without a speech synthesiser:
/// a harmonic-rich source (harmonics up to 3.5 kHz falling as 1/h, as a glottal pulse train
/// does) whose pitch glides by a few semitones within each syllable, under a 4.5 Hz syllable
/// envelope. A steady sine is a hum to the map, never speech; this is the tone tests use when
/// they mean "somebody spoke". The same arguments always give the same samples.
public enum SyntheticVoice {
    /// `seconds` of voice at `sampleRate`, RMS `dbfs`, its pitch moving around `pitchHz`;
    /// without `syllables` its loudness stays level (a meter draws it as a flat band) and only
    /// the pitch moves.
    public static func samples(seconds: Double, sampleRate: Int = 16_000, dbfs: Double = -20, pitchHz: Double = 140,
                               syllables: Bool = true) -> [Float] {
        let count = max(Int((seconds * Double(sampleRate)).rounded()), 0)
        let rate = Double(sampleRate)
        let syllableHz = 4.5
        var phase = 0.0
        var output = [Float](repeating: 0, count: count)
        var squares = 0.0
        for index in 0..<count {
            let time = Double(index) / rate
            // Each syllable rises and falls by two semitones; the phrase drifts slowly too.
            let semitones = 2 * sin(2 * Double.pi * syllableHz * time) + 1.5 * sin(2 * Double.pi * 0.6 * time)
            let pitch = pitchHz * pow(2, semitones / 12)
            phase += 2 * Double.pi * pitch / rate
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
            var value = 0.0
            let harmonics = max(Int(3_500 / pitch), 1)
            for harmonic in 1...harmonics {
                value += sin(Double(harmonic) * phase) / Double(harmonic)
            }
            // Loud at the start (a short take is still a word), dipping 14 dB between syllables.
            let envelope = syllables ? 0.2 + 0.8 * pow(cos(Double.pi * syllableHz * time), 2) : 1
            let sample = value * envelope
            output[index] = Float(sample)
            squares += sample * sample
        }
        let rms = count > 0 ? (squares / Double(count)).squareRoot() : 0
        guard rms > 0 else { return output }
        let gain = Float(pow(10, dbfs / 20) / rms)
        return output.map { $0 * gain }
    }

    /// The voice as 16-bit samples.
    public static func pcm16(seconds: Double, sampleRate: Int = 16_000, dbfs: Double = -20, pitchHz: Double = 140,
                             syllables: Bool = true) -> [Int16] {
        samples(seconds: seconds, sampleRate: sampleRate, dbfs: dbfs, pitchHz: pitchHz, syllables: syllables).map {
            Int16(clamping: Int(($0 * 32767).rounded()))
        }
    }

    /// The same voice on every one of `channels`, interleaved.
    public static func interleaved(_ mono: [Int16], channels: Int) -> [Int16] {
        guard channels > 1 else { return mono }
        var samples = [Int16](repeating: 0, count: mono.count * channels)
        for (index, sample) in mono.enumerated() {
            for channel in 0..<channels { samples[index * channels + channel] = sample }
        }
        return samples
    }

    /// The pitch a tone of `frequency` Hz stands for: a speaking voice's 90–240 Hz, spread by
    /// the golden ratio so that no two whole frequencies (not even octaves) give the same voice.
    public static func pitch(standingFor frequency: Double) -> Double {
        let spread = (frequency * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        return 90 + 150 * spread
    }

    /// Writes 16-bit samples (interleaved when `channels` > 1) as a WAV file.
    public static func writeWAV(_ samples: [Int16], sampleRate: Int = 16_000, channels: Int = 1, to url: URL) throws {
        var data = Data()
        data.reserveCapacity(44 + samples.count * 2)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36) + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(channels))
        append(UInt32(sampleRate))
        append(UInt32(sampleRate * 2 * channels))
        append(UInt16(2 * channels))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(bytes)
        // WAV is little-endian, as every machine these tests run on.
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: url)
    }
}
