import VoiceJournalCSndFile
import Foundation

/// How audio that must be transcoded for upload is encoded (16 kHz mono, through libsndfile).
public enum UploadCodec: String, Sendable, CaseIterable, Codable {
    /// Lossless, accepted by every server; about 400 kB a minute of 16 kHz mono speech.
    case flac
    /// About 90 kB a minute at libsndfile's default quality; accepted by every model.
    case mp3
    /// Ogg/Opus, about 220 kB a minute at libsndfile's default bitrate; some gpt-4o uploads are refused.
    case opus

    /// The upload's file extension: the API knows a file's format by its name, and refuses
    /// `.opus`, so Opus goes in an `.ogg`.
    public var fileExtension: String {
        switch self {
        case .flac: "flac"
        case .mp3: "mp3"
        case .opus: "ogg"
        }
    }

    /// The multipart part's content type.
    public var contentType: String {
        switch self {
        case .flac: "audio/flac"
        case .mp3: "audio/mpeg"
        case .opus: "audio/ogg"
        }
    }

    var sndfileFormat: Int32 {
        switch self {
        case .flac: Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)
        case .mp3: Int32(SF_FORMAT_MPEG) | Int32(SF_FORMAT_MPEG_LAYER_III)
        case .opus: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        }
    }
}

/// A new mono upload file (FLAC, MP3 or Ogg/Opus) written through libsndfile from Float
/// samples. Created 0600 (it holds someone's voice) and, like a recording, held under an
/// exclusive `flock` while open, so a sweep can tell a chunk being written from one left by a
/// crash. A file left by a failed write is the caller's to remove. Use from one thread.
public final class ChunkEncoder {
    private let writer: SoundFileWriter
    public let codec: UploadCodec
    /// FLAC is written as 16-bit samples converted here, so 16-bit input comes back exact.
    private var shorts: [Int16] = []

    /// Creates `url` (which must not exist, and must end in `codec.fileExtension`) for mono
    /// audio at `sampleRate` (Opus: 8, 12, 16, 24 or 48 kHz). `fastestFLAC` writes FLAC at its
    /// fastest level (0): a few percent larger, for files encoded beside a running capture.
    public init(creating url: URL, codec: UploadCodec, sampleRate: Int = 16000, fastestFLAC: Bool = false) throws {
        guard url.pathExtension.lowercased() == codec.fileExtension else {
            throw SoundFileError(operation: "create", path: url.path,
                                 reason: "a \(codec.rawValue) upload must be named .\(codec.fileExtension)")
        }
        self.codec = codec
        writer = try SoundFileWriter(creating: url, format: codec.sndfileFormat, container: nil, sampleRate: sampleRate, channels: 1)
        if fastestFLAC && codec == .flac { _ = writer.setCompression(0) }
    }

    public var url: URL { writer.url }
    public var sampleRate: Int { writer.sampleRate }
    /// Frames written so far.
    public var framesWritten: Int64 { writer.framesWritten }

    /// Appends mono samples (full scale ±1.0).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        guard codec == .flac else { return try writer.write(base, frames: samples.count) }
        if shorts.count < samples.count { shorts = [Int16](repeating: 0, count: samples.count) }
        try shorts.withUnsafeMutableBufferPointer { buffer in
            guard let shortBase = buffer.baseAddress else { return }
            convertToPCM16(base, count: samples.count, into: shortBase)
            try writer.write(shortBase, frames: samples.count)
        }
    }

    /// Appends mono samples held in an array.
    public func write(_ samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Flushes the encoder and finishes the file.
    public func close() throws { try writer.close() }
}

/// `pcm16` over a buffer, in a loop the compiler vectorises: clamped in Float (NaN becomes
/// -32768, never a trap), then converted with the CPU's own rounding (to nearest, ties to
/// even). The same as `pcm16` for every sample except exact halves, which go to the even
/// neighbour instead of away from zero; 16-bit input converted to Float comes back exact.
func convertToPCM16(_ samples: UnsafePointer<Float>, count: Int, into shorts: UnsafeMutablePointer<Int16>) {
    for index in 0..<count {
        var scaled = samples[index] * 32768
        scaled = scaled > -32768 ? scaled : -32768
        scaled = scaled < 32767 ? scaled : 32767
        shorts[index] = Int16(truncatingIfNeeded: Int32(scaled.rounded(.toNearestOrEven)))
    }
}
