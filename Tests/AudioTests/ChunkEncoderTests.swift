import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct ChunkEncoderTests {
    /// 2 s of 16 kHz speech-band tone as 16-bit values, then as the Float samples a stream gives.
    static let samples16 = CaptureFixtures.sine(sampleRate: 16000, seconds: 2, dbfs: -12, frequency: 440)
    static let samples = samples16.map { Float($0) / 32768 }

    static func encode(_ codec: UploadCodec, in folder: TemporaryFolder, name: String = "chunk", fastestFLAC: Bool = false) throws -> URL {
        let url = folder.path("\(name).\(codec.fileExtension)")
        let encoder = try ChunkEncoder(creating: url, codec: codec, fastestFLAC: fastestFLAC)
        for start in stride(from: 0, to: samples.count, by: 5000) {
            try encoder.write(Array(samples[start..<min(start + 5000, samples.count)]))
        }
        #expect(encoder.framesWritten == Int64(samples.count))
        try encoder.close()
        return url
    }

    static func decodeAll(_ url: URL) throws -> (info: AudioFileInfo, samples: [Float]) {
        let decoder = try AudioDecoder(url: url)
        var samples: [Float] = []
        while true {
            let block = try decoder.read(maxFrames: 4096)
            if block.isEmpty { break }
            samples += block
        }
        return (decoder.info, samples)
    }

    @Test func flacComesBackSampleForSample() throws {
        let folder = try TemporaryFolder()
        let url = try Self.encode(.flac, in: folder)
        let decoded = try Self.decodeAll(url)
        #expect(decoded.info.format == "flac" && decoded.info.sampleRate == 16000 && decoded.info.channels == 1)
        #expect(decoded.samples == Self.samples)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func fastestFLACIsLargerButComesBackSampleForSample() throws {
        let folder = try TemporaryFolder()
        let fastest = try Self.encode(.flac, in: folder, name: "fastest", fastestFLAC: true)
        let standard = try Self.encode(.flac, in: folder, name: "standard")
        #expect(try Self.decodeAll(fastest).samples == Self.samples)
        // Level 0 predicts with fixed polynomials only: a pure tone costs it more bytes than LPC.
        let sizes = try [fastest, standard].map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0 }
        #expect(sizes[0] > sizes[1], "fastest \(sizes[0]) bytes, standard \(sizes[1])")
    }

    @Test func flacSamplesAreRoundedToNearestAndClipped() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("chunk.flac")
        let encoder = try ChunkEncoder(creating: url, codec: .flac)
        let values: [Float] = [0.3 / 32768, 0.7 / 32768, -0.7 / 32768, 1234.4 / 32768, -1234.6 / 32768, 1.5, -2, 32767.2 / 32768]
        try encoder.write(values)
        try encoder.close()
        let expected: [Float] = [0, 1, -1, 1234, -1235, 32767, -32768, 32767].map { $0 / 32768 }
        #expect(try Self.decodeAll(url).samples == expected)
    }

    @Test(arguments: [UploadCodec.mp3, .opus])
    func lossyChunksDecodeBackToTheSameLengthAndLevel(codec: UploadCodec) throws {
        let folder = try TemporaryFolder()
        let url = try Self.encode(codec, in: folder)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let decoded = try Self.decodeAll(url)
        #expect(decoded.info.channels == 1)
        let seconds = Double(decoded.samples.count) / Double(decoded.info.sampleRate)
        #expect(abs(seconds - 2) < 0.05, "\(codec) decoded to \(seconds) s")
        let rate = decoded.info.sampleRate
        let tone = SignalLevel.toneDBFS(decoded.samples[(rate / 2)..<(rate * 3 / 2)], frequency: 440, sampleRate: rate)
        #expect(abs(tone - (-12 - 3.01)) < 1, "\(codec): 440 Hz at \(tone) dBFS")
        // Smaller than the same audio as 16-bit PCM (64 kB): that is why they exist.
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size > 0 && size < 32000, "\(codec): \(size) bytes")
    }

    @Test func codecsNameTheirFilesAsTheAPIExpects() {
        #expect(UploadCodec.allCases.map(\.fileExtension) == ["flac", "mp3", "ogg"])
        #expect(UploadCodec.allCases.map(\.contentType) == ["audio/flac", "audio/mpeg", "audio/ogg"])
    }

    @Test func anOpusChunkNamedDotOpusIsRefused() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("chunk.opus")
        #expect(throws: SoundFileError.self) { try ChunkEncoder(creating: url, codec: .opus) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("chunk.flac")
        try Data("keep me".utf8).write(to: url)
        #expect(throws: SoundFileError.self) { try ChunkEncoder(creating: url, codec: .flac) }
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
    }
}
