import VoiceJournalAudio
import Foundation
import Testing

@Suite struct ResamplerTests {
    /// `seconds` of a sine at `amplitude`, resampled 44.1 kHz → 16 kHz in uneven blocks, as a
    /// decoder would feed it.
    static func resampledTone(frequency: Double, amplitude: Double = 0.5, seconds: Double = 3) throws -> [Float] {
        let input = (0..<Int(44100 * seconds)).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / 44100)) }
        let resampler = try Resampler(from: 44100, to: 16000)
        var output: [Float] = []
        var start = 0
        for size in [1000, 4096, 777, 8192].lazy.cycled() {
            let end = min(start + size, input.count)
            output += try resampler.process(Array(input[start..<end]), endOfInput: end == input.count)
            start = end
            if end == input.count { break }
        }
        return output
    }

    @Test func keepsTheWholeLengthAcrossBlocks() throws {
        let output = try Self.resampledTone(frequency: 1000)
        #expect(abs(output.count - 48000) <= 1, "\(output.count) frames for 3 s")
    }

    @Test func aSevenKilohertzToneKeepsItsLevel() throws {
        let output = try Self.resampledTone(frequency: 7000)
        // The middle two seconds: away from the filter's start-up and end.
        let tone = SignalLevel.toneDBFS(output[8000..<40000], frequency: 7000, sampleRate: 16000)
        let expected = SignalLevel.dbfs(0.5 / 2.0.squareRoot())
        #expect(abs(tone - expected) < 0.5, "7 kHz at \(tone) dBFS, expected \(expected)")
    }

    @Test func aTenKilohertzToneIsRemovedNotFoldedBack() throws {
        // 10 kHz is above the 8 kHz Nyquist frequency of 16 kHz audio: a plain decimator would
        // fold it back to 6 kHz at full level.
        let output = try Self.resampledTone(frequency: 10000)
        let level = SignalLevel.rmsDBFS(output[8000..<40000])
        let input = SignalLevel.dbfs(0.5 / 2.0.squareRoot())
        #expect(input - level >= 60, "10 kHz only \(input - level) dB down")
    }

    @Test func refusesARatioLibsamplerateCannotDo() {
        #expect(throws: ResamplerError.self) { try Resampler(from: 1, to: 48000) }
    }

    @Test func downmixAveragesTheChannels() {
        let stereo: [Float] = [0.5, 0.5, 1, -1, 0.25, 0]
        #expect(stereo.withUnsafeBufferPointer { downmixToMono($0, channels: 2) } == [0.5, 0, 0.125])
    }
}

extension Sequence {
    /// The sequence repeated without end.
    func cycled() -> AnySequence<Element> {
        AnySequence { () -> AnyIterator<Element> in
            var iterator = self.makeIterator()
            return AnyIterator {
                if let next = iterator.next() { return next }
                iterator = self.makeIterator()
                return iterator.next()
            }
        }
    }
}
