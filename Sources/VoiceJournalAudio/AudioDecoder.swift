import Foundation

/// Any audio file, decoded block by block to interleaved Float frames (full scale ±1.0):
/// libsndfile first (WAV of any depth or float, FLAC, OGG/Vorbis, Opus, MP3, AIFF, CAF, W64, …),
/// FFmpeg for the rest (M4A/AAC, MP4, WebM, …). Memory does not grow with the file's length.
/// Use from one thread (blocking file I/O: never on the cooperative pool).
public final class AudioDecoder {
    /// Which library decodes the file.
    public enum Backend: String, Sendable {
        case sndfile, ffmpeg
    }

    private enum Source {
        case sndfile(SoundFileReader)
        case ffmpeg(FFmpegDecoder)
    }

    private var source: Source
    public let url: URL
    /// Rate, channels, format and length. For FFmpeg files `frames` is the container's
    /// estimate (`framesAreEstimated`) until the last block has been read, then the exact count.
    public private(set) var info: AudioFileInfo
    /// Frames handed out so far.
    public private(set) var framesRead: Int64 = 0
    /// How much audio this file may decode to; see `DecodeLimit`.
    public let limit: DecodeLimit
    /// The file's size when it was opened.
    public let fileSize: Int64

    /// Opens `url` with libsndfile, or FFmpeg when libsndfile cannot read it. A file neither can
    /// decode throws `SoundFileError` of kind `.notAudio` ("not audio or damaged: …"), as does
    /// an empty file ("empty file"). A declared length over `limit` throws `AudioFileProblem`
    /// (`.tooLong`, `.implausibleLength`) before anything is decoded; so does `read` once the
    /// decoded count passes it. `growing`: a recorder may still be writing the file (a
    /// recording in progress, or one whose recorder died): every whole frame on disk is read,
    /// whatever a WAV header says (`SoundFileReader(growing:)`); the file is never written.
    public init(url: URL, limit: DecodeLimit = .plausible, growing: Bool = false) throws {
        self.url = url
        self.limit = limit
        // A link that leads nowhere (dangling, or a loop) is not "no such file": RegularFile
        // says which it is.
        guard FileManager.default.fileExists(atPath: url.path) || (try? FileStatus.of(url.path, followingLinks: false)) != nil else {
            throw SoundFileError(operation: "open", path: url.path, reason: "no such file")
        }
        // A pipe, device or folder is refused before anything opens it.
        fileSize = try RegularFile.check(url).sizeBytes
        guard fileSize > 0 else { throw SoundFileError.empty(path: url.path) }
        let reader: SoundFileReader
        do {
            reader = try growing ? SoundFileReader(growing: url) : SoundFileReader(url: url)
        } catch let sndfileError as SoundFileError {
            let decoder = try Self.ffmpeg(url, sndfileError: sndfileError)
            source = .ffmpeg(decoder)
            info = decoder.info
            try checkDeclaredLength()
            return
        }
        source = .sndfile(reader)
        info = reader.info
        try checkDeclaredLength()
    }

    /// FFmpeg's decoder for a file libsndfile could not open; when FFmpeg cannot either, the
    /// one "not audio or damaged" error with both libraries' reasons.
    private static func ffmpeg(_ url: URL, sndfileError: SoundFileError) throws -> FFmpegDecoder {
        do {
            return try FFmpegDecoder(url: url)
        } catch let error as SoundFileError {
            throw SoundFileError.notAudio(path: url.path, sndfile: sndfileError.reason, ffmpeg: error.reason)
        }
    }

    /// A length a header states is checked against the limit before decoding; a FLAC written
    /// to a pipe states none (libsndfile's `Int64.max`), and its decode is bounded as it runs.
    private func checkDeclaredLength() throws {
        guard info.frames != Int64.max, info.sampleRate > 0 else { return }
        try limit.check(declaredSeconds: info.durationSeconds, fileSize: fileSize, path: url.path)
    }

    /// Opens the file only to learn its shape. FFmpeg files state their length only as an
    /// estimate (`framesAreEstimated`), and some not at all (a browser's live-recorded WebM):
    /// those, or every FFmpeg file with `exactLength`, are decoded to the end to count it.
    public static func probe(_ url: URL, exactLength: Bool = false, limit: DecodeLimit = .plausible) throws -> AudioFileInfo {
        let decoder = try AudioDecoder(url: url, limit: limit)
        if decoder.info.framesAreEstimated, exactLength || decoder.info.frames == 0 { try decoder.skipToEnd() }
        return decoder.info
    }

    /// Decodes the rest of the file without keeping it, which makes `info.frames` exact.
    public func skipToEnd() throws {
        var scratch = [Float](repeating: 0, count: 8192 * max(info.channels, 1))
        try scratch.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while try read(into: base, maxFrames: 8192) > 0 {}
        }
    }

    /// The library decoding this file.
    public var backend: Backend {
        switch source {
        case .sndfile: .sndfile
        case .ffmpeg: .ffmpeg
        }
    }

    /// The codec inside the container when FFmpeg decodes it ("aac", "opus", …); nil for libsndfile.
    public var codecName: String? {
        if case let .ffmpeg(decoder) = source { return decoder.codecName }
        return nil
    }

    /// Reads up to `maxFrames` interleaved frames into `buffer` (room for `maxFrames * channels`
    /// samples). Returns the frames read; fewer than asked only at the end, 0 once it is reached.
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
        guard maxFrames > 0 else { return 0 }
        let read: Int
        switch source {
        case let .sndfile(reader): read = try reader.readFloat(into: buffer, maxFrames: maxFrames)
        case let .ffmpeg(decoder): read = try decoder.read(into: buffer, maxFrames: maxFrames)
        }
        framesRead += Int64(read)
        try limit.checkRunning(frames: framesRead, sampleRate: info.sampleRate, fileSize: fileSize, path: url.path)
        if read == 0, info.framesAreEstimated {
            // Decoded to the end: now the length is counted, not estimated.
            info.frames = framesRead
            info.framesAreEstimated = false
        }
        return read
    }

    /// True when `readInt16` copies the file's own samples (16-bit PCM through libsndfile).
    public var readsInt16Directly: Bool {
        if case let .sndfile(reader) = source { return reader.isPCM16 }
        return false
    }

    /// Reads up to `maxFrames` interleaved 16-bit frames into `buffer` straight from the file,
    /// with no conversion; only when `readsInt16Directly` (nil otherwise).
    public func readInt16(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) throws -> Int? {
        guard case let .sndfile(reader) = source, reader.isPCM16, maxFrames > 0 else { return nil }
        let read = try reader.readInt16(into: buffer, maxFrames: maxFrames)
        framesRead += Int64(read)
        try limit.checkRunning(frames: framesRead, sampleRate: info.sampleRate, fileSize: fileSize, path: url.path)
        return read
    }

    /// Moves to `frame` from the start, so the next read begins there. libsndfile seeks;
    /// FFmpeg files are decoded from the start (or from here, going forward) up to it, which
    /// costs time in proportion to the distance. Past the end: the next read returns 0.
    public func seek(toFrame frame: Int64) throws {
        let target = max(frame, 0)
        switch source {
        case let .sndfile(reader):
            if !reader.seek(toFrame: min(target, info.frames)) {
                _ = reader.seek(toFrame: info.frames)
            }
            framesRead = min(target, info.frames)
        case .ffmpeg:
            if target < framesRead {
                source = .ffmpeg(try FFmpegDecoder(url: url))
                framesRead = 0
            }
            var scratch = [Float](repeating: 0, count: 8192 * max(info.channels, 1))
            try scratch.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                while framesRead < target {
                    if try read(into: base, maxFrames: Int(min(8192, target - framesRead))) == 0 { break }
                }
            }
        }
    }

    /// Reads up to `maxFrames` interleaved frames into a new array; empty at the end.
    public func read(maxFrames: Int) throws -> [Float] {
        let channels = max(info.channels, 1)
        var block = [Float](repeating: 0, count: max(maxFrames, 0) * channels)
        let frames = try block.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return try read(into: base, maxFrames: maxFrames)
        }
        block.removeSubrange((frames * channels)...)
        return block
    }
}

/// A Float sample (full scale ±1.0) as a 16-bit one: exact for audio that was 16-bit, clipped
/// at full scale for float audio beyond it.
func pcm16(_ value: Float) -> Int16 {
    Int16(max(-32768, min(32767, (value * 32768).rounded())))
}
