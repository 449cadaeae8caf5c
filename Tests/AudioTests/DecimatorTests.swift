import VoiceJournalAudio
import Foundation
import Testing

@Suite struct DecimatorTests {
    /// `seconds` of a sine at `amplitude`, sampled at `rate`.
    static func tone(_ frequency: Double, rate: Int, seconds: Double = 2, amplitude: Double = 0.5) -> [Float] {
        (0..<Int(Double(rate) * seconds)).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// `input` decimated in uneven blocks, as capture and decoders hand them over.
    static func decimated(_ input: [Float], factor: Int, blocks: [Int] = [1000, 4096, 777, 8192, 1, 3]) -> [Float] {
        let decimator = Decimator(factor: factor)
        var output: [Float] = []
        var start = 0
        for size in blocks.lazy.cycled() {
            let end = min(start + size, input.count)
            output += decimator.process(Array(input[start..<end]), endOfInput: end == input.count)
            start = end
            if end == input.count { break }
        }
        return output
    }

    /// The middle of a decimated two-second tone: away from the silence taken beyond both ends.
    static func middle(_ output: [Float]) -> ArraySlice<Float> {
        output[(output.count / 4)..<(output.count * 3 / 4)]
    }

    @Test(arguments: [(48000, 300.0), (48000, 1000.0), (48000, 6900.0), (32000, 6900.0), (96000, 6900.0)])
    func aToneBelowSevenKilohertzKeepsItsLevel(rate: Int, frequency: Double) {
        let output = Self.decimated(Self.tone(frequency, rate: rate), factor: rate / 16000)
        let level = SignalLevel.toneDBFS(Self.middle(output), frequency: frequency, sampleRate: 16000)
        let expected = SignalLevel.dbfs(0.5 / 2.0.squareRoot())
        #expect(abs(level - expected) < 0.05, "\(frequency) Hz at \(rate) Hz: \(level) dBFS, expected \(expected)")
    }

    @Test(arguments: [(48000, 9100.0), (48000, 10000.0), (48000, 12000.0), (48000, 16500.0), (48000, 23900.0),
                      (32000, 9100.0), (32000, 15000.0), (96000, 9100.0), (96000, 40000.0)])
    func aToneAboveNineKilohertzIsRemovedNotFoldedBack(rate: Int, frequency: Double) {
        // Decimating without a filter would fold each of these back below 8 kHz at full level
        // (8–9 kHz may fold back above 7 kHz, outside the passband).
        let output = Self.decimated(Self.tone(frequency, rate: rate), factor: rate / 16000)
        let left = SignalLevel.rmsDBFS(Self.middle(output))
        let input = SignalLevel.dbfs(0.5 / 2.0.squareRoot())
        #expect(input - left >= 48, "\(frequency) Hz at \(rate) Hz only \(input - left) dB down")
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 100, 47_999, 48_000, 48_001, 100_003])
    func givesExactlyOneSamplePerFactorRoundedUp(count: Int) {
        let input = (0..<count).map { Float($0 % 7) / 10 }
        #expect(Self.decimated(input, factor: 3).count == (count + 2) / 3)
        #expect(Self.decimated(input, factor: 2).count == (count + 1) / 2)
    }

    @Test func howTheAudioIsSplitIntoBlocksDoesNotChangeTheOutput() {
        let input = Self.tone(440, rate: 48000, seconds: 1).enumerated().map { $1 + Float($0 % 13) / 100 }
        let whole = Decimator(factor: 3).process(input, endOfInput: true)
        #expect(Self.decimated(input, factor: 3) == whole)
        #expect(Self.decimated(input, factor: 3, blocks: [1]) == whole)
        #expect(Self.decimated(input, factor: 3, blocks: [48000]) == whole)
    }

    @Test func aClickStaysAtItsOwnTime() throws {
        // Output sample k stands where input sample 3k stood: the time maps rely on no delay.
        var input = [Float](repeating: 0, count: 48000)
        input[3 * 5000] = 1
        let output = Self.decimated(input, factor: 3)
        let loudest = try #require(output.indices.max { abs(output[$0]) < abs(output[$1]) })
        #expect(loudest == 5000)
        #expect(abs(output[4990] - output[5010]) < 1e-6, "the filter is symmetric about the click")
    }

    @Test(arguments: [1, 2, 3])
    func sixteenBitFramesMixDownToTheSameSamplesAsFloatFrames(channels: Int) {
        let frames = (0..<999).map { Int16(truncatingIfNeeded: $0 &* 7919 &- 32768) } + [.min, .max, .min, .max, .min, .max]
        let floats = frames.map { Float($0) / 32768 }
        let expected = floats.withUnsafeBufferPointer { downmixToMono($0, channels: channels) }
        let mixed = frames.withUnsafeBufferPointer { downmixToMono($0, channels: channels) }
        #expect(mixed.count == frames.count / channels)
        #expect(zip(mixed, expected).allSatisfy { abs($0 - $1) <= 1e-6 })
        // One or two channels: exactly the same samples (a power-of-two scale).
        if channels <= 2 { #expect(mixed == expected) }
    }

    @Test func aFactorOfOnePassesTheAudioThrough() {
        let input = Self.tone(1000, rate: 16000, seconds: 0.1)
        #expect(Self.decimated(input, factor: 1) == input)
    }

    @Test func speechResamplerDecimatesWholeFactorsDownAndUsesTheFastestSincOtherwise() throws {
        #expect(try SpeechResampler(from: 48000, to: 16000).decimates)
        #expect(try SpeechResampler(from: 32000, to: 16000).decimates)
        #expect(try !SpeechResampler(from: 44100, to: 16000).decimates)
        #expect(try !SpeechResampler(from: 8000, to: 16000).decimates)
        #expect(throws: ResamplerError.self) { try SpeechResampler(from: 1, to: 48000) }

        // 44.1 kHz through the fastest sinc: speech's band keeps its level, above 8 kHz is gone.
        let expected = SignalLevel.dbfs(0.5 / 2.0.squareRoot())
        for frequency in [1000.0, 5000.0] {
            let resampler = try SpeechResampler(from: 44100, to: 16000)
            let output = try resampler.process(Self.tone(frequency, rate: 44100), endOfInput: true)
            #expect(abs(output.count - 32000) <= 1)
            let level = SignalLevel.toneDBFS(Self.middle(output), frequency: frequency, sampleRate: 16000)
            #expect(abs(level - expected) < 0.5, "\(frequency) Hz: \(level) dBFS")
        }
        let resampler = try SpeechResampler(from: 44100, to: 16000)
        let high = try resampler.process(Self.tone(10000, rate: 44100), endOfInput: true)
        #expect(expected - SignalLevel.rmsDBFS(Self.middle(high)) >= 60)
    }
}
