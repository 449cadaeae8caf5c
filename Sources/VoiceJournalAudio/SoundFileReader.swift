import VoiceJournalCSndFile
import Foundation

/// What libsndfile learned about an audio file by opening it.
public struct AudioFileInfo: Sendable, Equatable {
    /// The highest sample rate audio is made at (DXD, 8× 96 kHz); a file declaring more is
    /// not audio, whatever its header says.
    public static let highestSampleRate = 768_000

    public var frames: Int64
    public var sampleRate: Int
    public var channels: Int
    /// The container's usual extension as libsndfile names it: `wav`, `flac`, `oga`, `mp3`, …
    /// (for files FFmpeg decodes: `m4a`, `mp4`, `webm`, …).
    public var format: String
    /// `frames` comes from a container's stated duration, not from counting decoded frames
    /// (FFmpeg files until decoded to the end): close, but not exact.
    public var framesAreEstimated: Bool

    public init(frames: Int64, sampleRate: Int, channels: Int, format: String, framesAreEstimated: Bool = false) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.framesAreEstimated = framesAreEstimated
    }

    /// Length counted in frames, never by the wall clock.
    public var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// An audio file open for reading through libsndfile (one `SNDFILE*`, closed on deinit).
public final class SoundFileReader {
    private let handle: OpaquePointer
    private let sndfile: LibSndFile
    public let info: AudioFileInfo
    public let url: URL
    /// Whether the samples are stored as 16-bit integers (PCM_16): then reading them as 16-bit
    /// is a copy, exactly what reading Float and converting back gives.
    let isPCM16: Bool
    /// What a handle opened through virtual I/O reads from (`GrowingWAV`): kept as long as it.
    private let source: AnyObject?

    /// Opens any format libsndfile reads (WAV, FLAC, OGG/Vorbis, MP3, AIFF, …). Anything but
    /// a readable regular file is refused (`AudioFileProblem`) before it is opened: a pipe
    /// would block the open, a device would never end.
    public convenience init(url: URL) throws {
        guard try RegularFile.check(url).sizeBytes > 0 else { throw SoundFileError.empty(path: url.path) }
        let sndfile = try LibSndFile.forFile("open", path: url.path)
        var sfInfo = SF_INFO()
        guard let handle = sndfile.open(url.path, Int32(SFM_READ), &sfInfo) else {
            throw sndfile.failure(nil, operation: "open", path: url.path)
        }
        self.init(handle: handle, sndfile: sndfile, info: sfInfo, url: url, keeping: nil)
    }

    /// A reader owning `handle` (closed on deinit), and `source` while the handle lives.
    init(handle: OpaquePointer, sndfile: LibSndFile, info sfInfo: SF_INFO, url: URL, keeping source: AnyObject?) {
        self.handle = handle
        self.sndfile = sndfile
        self.url = url
        self.source = source
        isPCM16 = sfInfo.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        self.info = AudioFileInfo(
            frames: Int64(sfInfo.frames), sampleRate: Int(sfInfo.samplerate), channels: Int(sfInfo.channels),
            format: Self.extensionName(of: sfInfo.format, sndfile: sndfile))
    }

    // The handle closes before `source` goes: stored properties are released after deinit runs.
    deinit { _ = sndfile.close(handle) }

    /// Opens the file only to learn its shape; throws if libsndfile cannot read it.
    public static func probe(_ url: URL) throws -> AudioFileInfo {
        try SoundFileReader(url: url).info
    }

    /// Reads up to `frames` interleaved frames as 16-bit samples; an empty array at the end.
    public func readInt16(frames: Int) throws -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * info.channels)
        let read = samples.withUnsafeMutableBufferPointer { sndfile.readShort(handle, $0.baseAddress, sf_count_t(frames)) }
        if read < 0 { throw sndfile.failure(handle, operation: "read", path: url.path) }
        samples.removeSubrange(Int(read) * info.channels..<samples.count)
        return samples
    }

    /// Reads up to `maxFrames` interleaved 16-bit frames into `buffer`; 0 at the end.
    func readInt16(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) throws -> Int {
        let read = sndfile.readShort(handle, buffer, sf_count_t(maxFrames))
        if read < 0 { throw sndfile.failure(handle, operation: "read", path: url.path) }
        return Int(read)
    }

    /// Moves to `frame` (from the start); false when libsndfile cannot get there, as when the
    /// file ends before it.
    func seek(toFrame frame: Int64) -> Bool {
        sndfile.seek(handle, sf_count_t(frame), SEEK_SET) == sf_count_t(frame)
    }

    /// Reads up to `maxFrames` interleaved frames as Float (full scale ±1.0) into `buffer`
    /// (which holds at least `maxFrames * channels` samples); 0 at the end.
    public func readFloat(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
        let read = sndfile.readFloat(handle, buffer, sf_count_t(maxFrames))
        if read < 0 { throw sndfile.failure(handle, operation: "read", path: url.path) }
        return Int(read)
    }

    /// libsndfile's extension for the file's major format (e.g. "wav"), or "audio" if it has none.
    private static func extensionName(of format: Int32, sndfile: LibSndFile) -> String {
        // libsndfile names every MPEG file "m1a"; an MP3 is an "mp3" to everyone else.
        if format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_MPEG),
           format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_MPEG_LAYER_III) {
            return "mp3"
        }
        var formatInfo = SF_FORMAT_INFO()
        formatInfo.format = format & Int32(SF_FORMAT_TYPEMASK)
        let status = sndfile.command(nil, Int32(SFC_GET_FORMAT_INFO), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        guard status == 0, let ext = formatInfo.extension else { return "audio" }
        return String(cString: ext)
    }
}
