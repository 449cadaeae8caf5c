import CSndFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
/// samples: one `SNDFILE*`, closed by `close()` or deinit. Created 0600 (it holds someone's
/// voice); a file left by a failed write is the caller's to remove. Use from one thread.
public final class ChunkEncoder {
    private var handle: OpaquePointer?
    /// Ours, not libsndfile's (opened with close_desc false), so every path closes it once.
    private let descriptor: Int32
    public let url: URL
    public let codec: UploadCodec
    public let sampleRate: Int
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0
    /// FLAC is written as 16-bit samples converted here, so 16-bit input comes back exact.
    private var shorts: [Int16] = []

    /// Creates `url` (which must not exist, and must end in `codec.fileExtension`) for mono
    /// audio at `sampleRate` (Opus: 8, 12, 16, 24 or 48 kHz).
    public init(creating url: URL, codec: UploadCodec, sampleRate: Int = 16000) throws {
        guard url.pathExtension.lowercased() == codec.fileExtension else {
            throw SoundFileError(operation: "create", path: url.path,
                                 reason: "a \(codec.rawValue) upload must be named .\(codec.fileExtension)")
        }
        self.url = url
        self.codec = codec
        self.sampleRate = sampleRate
        let fd = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SoundFileError(operation: "create", path: url.path, reason: String(cString: strerror(errno)))
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = codec.sndfileFormat
        guard let handle = sf_open_fd(fd, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let error = SoundFileError.last(nil, operation: "open for writing", path: url.path)
            Glibc.close(fd)
            throw error
        }
        self.handle = handle
        descriptor = fd
        // Samples beyond full scale are clipped, not wrapped around to the opposite sign.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    deinit {
        if let handle {
            sf_close(handle)
            Glibc.close(descriptor)
        }
    }

    /// Appends mono samples (full scale ±1.0).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws {
        guard let handle else { throw SoundFileError(operation: "write", path: url.path, reason: "the file is closed") }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let written: sf_count_t
        if codec == .flac {
            shorts.removeAll(keepingCapacity: true)
            shorts.append(contentsOf: samples.lazy.map(pcm16))
            written = shorts.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, sf_count_t($0.count)) }
        } else {
            written = sf_writef_float(handle, base, sf_count_t(samples.count))
        }
        framesWritten += Int64(max(written, 0))
        guard written == samples.count else { throw SoundFileError.last(handle, operation: "write", path: url.path) }
    }

    /// Appends mono samples held in an array.
    public func write(_ samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Flushes the encoder and finishes the file.
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        let closed = Glibc.close(descriptor)
        if closed != 0 {
            throw SoundFileError(operation: "close", path: url.path, reason: String(cString: strerror(errno)))
        }
        if status != 0 {
            throw SoundFileError(operation: "close", path: url.path, reason: String(cString: sf_error_number(status)))
        }
    }
}
