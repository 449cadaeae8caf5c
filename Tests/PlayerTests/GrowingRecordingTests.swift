import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

/// A recording still being recorded plays what is on disk: its WAV header trails the audio
/// (brought up to date every half second or so, 0 bytes before the first update) and a FLAC
/// states no length until it is closed. Read as `growing`, every whole frame on disk is
/// decoded, and the file is left exactly as it was.
@Suite(.onTestThreads) struct GrowingRecordingTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("vj-growing") }

    /// One second of a voice-like signal at 16 kHz.
    static let second = SyntheticVoice.pcm16(seconds: 1, dbfs: -12)

    /// Every frame `url` decodes to, as 16-bit samples (exact for 16-bit audio).
    static func decoded(_ url: URL, growing: Bool) throws -> [Int16] {
        let decoder = try AudioDecoder(url: url, growing: growing)
        var samples: [Int16] = []
        while true {
            let block = try decoder.read(maxFrames: 4096)
            if block.isEmpty { break }
            samples += block.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        }
        return samples
    }

    /// A WAV holding `samples` whose header says `declaredBytes` of audio, plus `tail` stray bytes.
    func wav(_ samples: [Int16], channels: Int = 1, declaredBytes: UInt32, tail: [UInt8] = []) throws -> URL {
        let url = folder.path("take-\(UUID().uuidString.prefix(6)).wav")
        try SyntheticVoice.writeWAV(samples, channels: channels, to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        #expect(String(decoding: bytes[36..<40], as: UTF8.self) == "data")
        func put(_ value: UInt32, at offset: Int) { withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) } }
        put(declaredBytes, at: 40)
        put(36 + declaredBytes, at: 4)
        try Data(bytes + tail).write(to: url)
        return url
    }

    @Test func aWAVWhoseHeaderSaysNoAudioYetPlaysEverySecondOnDisk() throws {
        let url = try wav(Self.second, declaredBytes: 0)
        let before = try Data(contentsOf: url)
        #expect(try Self.decoded(url, growing: false).isEmpty, "libsndfile believes the header")
        let samples = try Self.decoded(url, growing: true)
        #expect(samples.count == 16000 && samples == Self.second)
        #expect(try AudioDecoder(url: url, growing: true).info.frames == 16000)
        #expect(try Data(contentsOf: url) == before, "the file is never written")
    }

    @Test func aStaleHeaderAndATornLastFrameGiveEveryWholeFrame() throws {
        let stereo = SyntheticVoice.interleaved(Self.second, channels: 2)
        // The header covers half a second; two bytes of a frame being written follow the audio.
        let url = try wav(stereo, channels: 2, declaredBytes: 32000, tail: [0x12, 0x34])
        #expect(try Self.decoded(url, growing: false).count == 16000)
        #expect(try Self.decoded(url, growing: true) == stereo)
    }

    @Test func aCompleteFileReadsTheSameGrowingOrNot() throws {
        let url = try wav(Self.second, declaredBytes: 32000)
        #expect(try Self.decoded(url, growing: true) == Self.second)
        #expect(try AudioDecoder.probe(url).frames == 16000)
    }

    @Test func aWAVTheWriterIsStillWritingPlaysPastItsLastHeaderUpdate() throws {
        let url = folder.path("recording.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 16000, channels: 1)
        try Self.second.prefix(8000).withUnsafeBufferPointer { try writer.write(#require($0.baseAddress), frames: 8000) }
        try writer.updateHeader()
        try Self.second.suffix(8000).withUnsafeBufferPointer { try writer.write(#require($0.baseAddress), frames: 8000) }
        // libsndfile buffers nothing for PCM WAV: every frame written is on disk, the header says half.
        #expect(try Self.decoded(url, growing: false).count == 8000)
        #expect(try Self.decoded(url, growing: true) == Self.second)
        try writer.close()
    }

    @Test func aFLACTheWriterIsStillWritingPlaysItsWholeFramesWithoutAnError() throws {
        let url = folder.path("recording.flac")
        let writer = try SoundFileWriter(creating: url, container: .flac, sampleRate: 16000, channels: 1)
        let twoSeconds = Self.second + Self.second
        try twoSeconds.withUnsafeBufferPointer { try writer.write(#require($0.baseAddress), frames: 32000) }
        let samples = try Self.decoded(url, growing: true)
        #expect(samples.count > 0 && samples.count < 32000, "the encoder still holds the last frames: \(samples.count)")
        #expect(samples == Array(twoSeconds.prefix(samples.count)), "lossless up to the last whole frame")
        try writer.close()
        #expect(try Self.decoded(url, growing: true) == twoSeconds)
    }
}

/// The same through the player's library entry point: a WAV whose header says no audio yet,
/// played to a speaker that takes only another rate (so the file is decoded and converted,
/// not mapped), plays its whole second.
@Suite struct GrowingPlaybackTests {
    @Test
    func aWAVWithNoAudioInItsHeaderPlaysInFullThroughTheResampler() async throws {
        let folder = try TemporaryFolder("vj-growing-play")
        let url = folder.path("take.wav")
        try SyntheticVoice.writeWAV(GrowingRecordingTests.second, to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.replaceSubrange(40..<44, with: [0, 0, 0, 0])
        try Data(bytes).write(to: url)
        let speaker = try VirtualSpeaker(in: folder.url, fixedRate: 8000)
        let session = try PlaybackSession(file: url, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                          growing: true, logger: TemporaryJournal.logger)
        session.start()
        let result = await session.result()
        #expect(result.end == .finished && session.isResampled)
        #expect(abs(speaker.written().count - 8000) <= 2, "\(speaker.written().count) samples at 8 kHz")
    }
}
