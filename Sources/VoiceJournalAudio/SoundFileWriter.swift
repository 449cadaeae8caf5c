import VoiceJournalCSndFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import VoiceJournalSystem

/// The containers `record` writes, both 16-bit PCM.
public enum AudioContainer: String, Sendable, CaseIterable, Codable {
    case wav, flac

    /// The file extension, which is also the store's `format` value.
    public var fileExtension: String { rawValue }

    var sndfileFormat: Int32 {
        switch self {
        case .wav: Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_PCM_16)
        case .flac: Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)
        }
    }
}

/// A new audio file being written through libsndfile (one `SNDFILE*`, closed on `close()` or
/// deinit). The file is created 0600 and held under an exclusive `flock` while open, so
/// another process can tell a live recording from one whose recorder died.
public final class SoundFileWriter: @unchecked Sendable {
    // @unchecked: created on one thread, then written by exactly one thread (the capture
    // session's writer) until that thread has finished; `close()` runs after it.
    private var handle: OpaquePointer?
    private let sndfile: LibSndFile
    /// Ours, not libsndfile's (opened with close_desc false), so failure paths close it once.
    private let descriptor: Int32
    public let url: URL
    /// The recording container; nil for an upload chunk (see `ChunkEncoder`).
    public let container: AudioContainer?
    public let sampleRate: Int
    public let channels: Int
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0
    /// Where the WAV header keeps its sizes, read once from the file libsndfile started.
    private var layout: WAVLayout?

    /// Creates `url` (which must not exist) with mode 0600 and opens it for writing.
    /// `comment` is stored in the file's metadata (WAV INFO chunk, FLAC Vorbis comment).
    public convenience init(creating url: URL, container: AudioContainer, sampleRate: Int, channels: Int, comment: String? = nil) throws {
        try self.init(creating: url, format: container.sndfileFormat, container: container, sampleRate: sampleRate,
                      channels: channels, comment: comment)
    }

    /// Creates `url` as above in any libsndfile format (major | subtype).
    init(creating url: URL, format: Int32, container: AudioContainer?, sampleRate: Int, channels: Int, comment: String? = nil) throws {
        self.url = url
        self.container = container
        self.sampleRate = sampleRate
        self.channels = channels
        // Before the file is made: a library that cannot be loaded leaves nothing behind.
        let sndfile = try LibSndFile.forFile("open for writing", path: url.path)
        self.sndfile = sndfile
        let fd = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SystemError.soundFile("create", path: url.path)
        }
        // Held until close() (or the process dies): see `FileLock`.
        guard FileLock.take(fd) else {
            let error = SystemError.soundFile("lock", path: url.path)
            Glibc.close(fd)
            throw error
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let handle = sndfile.openDescriptor(fd, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let error = sndfile.failure(nil, operation: "open for writing", path: url.path)
            Glibc.close(fd)
            throw error
        }
        self.handle = handle
        descriptor = fd
        // Float samples beyond full scale are clipped, not wrapped around to the opposite sign.
        _ = sndfile.command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        if let comment {
            // Before the first write, so libsndfile places it in the header, not after the audio.
            _ = sndfile.setString(handle, Int32(SF_STR_COMMENT), comment)
        }
    }

    deinit {
        if let handle {
            _ = sndfile.close(handle)
            Glibc.close(descriptor)
        }
    }

    /// Sets a compressed format's compression, from 0 (fastest, largest) to 1 (slowest,
    /// smallest; FLAC's levels 0–8). Only before the first write; false if the format has none.
    func setCompression(_ level: Double) -> Bool {
        guard let handle, framesWritten == 0 else { return false }
        var level = min(max(level, 0), 1)
        return sndfile.command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size)) == Int32(SF_TRUE)
    }

    /// Appends `frames` interleaved frames.
    public func write(_ samples: UnsafePointer<Int16>, frames: Int) throws {
        guard let handle else { throw SoundFileError(operation: "write", path: url.path, reason: "the file is closed") }
        try count(sndfile.writeShort(handle, samples, sf_count_t(frames)), of: frames, handle: handle)
    }

    /// Appends `frames` interleaved Float frames (full scale ±1.0).
    public func write(_ samples: UnsafePointer<Float>, frames: Int) throws {
        guard let handle else { throw SoundFileError(operation: "write", path: url.path, reason: "the file is closed") }
        try count(sndfile.writeFloat(handle, samples, sf_count_t(frames)), of: frames, handle: handle)
    }

    /// Adds what libsndfile wrote to `framesWritten`; throws its reason when it wrote less than asked.
    private func count(_ written: sf_count_t, of frames: Int, handle: OpaquePointer) throws {
        framesWritten += Int64(max(written, 0))
        guard written == frames else { throw sndfile.failure(handle, operation: "write", path: url.path) }
    }

    /// Rewrites the header so it covers every frame written so far: a file cut off after
    /// this point still opens with this length. WAV only; FLAC's header is final at close.
    /// Only the two size fields change, so they are written in place (two `pwrite`s) rather
    /// than through libsndfile's full header rewrite (fstat, seeks, every chunk).
    ///
    /// Throws when the header could not be written (a full disk, an I/O error): crash safety
    /// rests on it, so the recording must stop rather than go on with a stale header.
    public func updateHeader() throws {
        guard let handle, container == .wav else { return }
        if layout == nil {
            var header = [UInt8](repeating: 0, count: 4096)
            let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            layout = read > 0 ? try? WAVLayout.parse(Array(header.prefix(read))) : nil
        }
        guard let layout else {
            // Not a layout we can patch in place: let libsndfile rewrite the whole header.
            guard sndfile.command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0) == 0, sndfile.error(handle) == 0 else {
                throw sndfile.failure(handle, operation: "update the header of", path: url.path)
            }
            return
        }
        let dataSize = UInt32(clamping: framesWritten * Int64(layout.blockAlign))
        let riffSize = UInt32(clamping: Int64(layout.dataOffset) + Int64(dataSize) - 8)
        try put(riffSize, at: 4)
        try put(dataSize, at: layout.dataSizeOffset)
    }

    private func put(_ value: UInt32, at offset: Int) throws {
        var littleEndian = value.littleEndian
        let written = retryingOnInterrupt { pwrite(descriptor, &littleEndian, 4, off_t(offset)) }
        if written != 4 {
            throw written < 0
                ? SystemError.soundFile("update the header of", path: url.path)
                : SoundFileError(operation: "update the header of", path: url.path, reason: "short write")
        }
    }

    /// Finishes the file (final header, encoder flushed) and releases the lock.
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        let status = sndfile.close(handle)
        let closed = Glibc.close(descriptor)
        if closed != 0 {
            throw SystemError.soundFile("close", path: url.path)
        }
        if status != 0 {
            throw SoundFileError(operation: "close", path: url.path, reason: sndfile.errorNumber(status).map { String(cString: $0) } ?? "error \(status)")
        }
    }
}
