import Foundation

/// How much audio one file may make a decoder produce. Decoding costs CPU in proportion to
/// the audio's length, not the file's size: a 72 KB FLAC declaring ten hours of silence is a
/// decompression bomb. So a file is refused on its declared length before anything is decoded,
/// and a decode stops as soon as its running count passes the bound (a file that lies about
/// its length, or declares none).
///
/// Two bounds, the smaller applies: the caller's longest length (`serve`'s
/// `--max-answer-seconds`), and everywhere, a length the file's bytes can plausibly hold.
public struct DecodeLimit: Sendable, Equatable {
    /// The longest audio the caller takes, in seconds; nil: any length.
    public var maxSeconds: Double?

    /// No limit of the caller's: only the plausibility bound.
    public static let plausible = DecodeLimit()

    public init(maxSeconds: Double? = nil) {
        self.maxSeconds = maxSeconds
    }

    /// The fewest bytes a second of real audio takes. The most compact real files measured
    /// are digital silence in FLAC (about 180 bytes a second) and silence in Ogg/Opus (about
    /// 230); 10 leaves room for any real recording while a file of N bytes decodes
    /// to at most N / 10 seconds (a 72 KB file: 2 hours, not the 10 a bomb declares).
    public static let minimumBytesPerSecond = 10.0

    /// The longest audio a file of `fileSize` bytes may decode to.
    public func allowedSeconds(fileSize: Int64) -> Double {
        min(maxSeconds ?? .infinity, Double(max(fileSize, 0)) / Self.minimumBytesPerSecond)
    }

    /// Throws when `declaredSeconds` (a header's or container's length) is over the bound:
    /// `.tooLong` over the caller's limit, `.implausibleLength` over what the bytes can hold.
    package func check(declaredSeconds: Double, fileSize: Int64, path: String) throws(AudioFileProblem) {
        guard declaredSeconds.isFinite, declaredSeconds > 0 else { return }
        if let maxSeconds, declaredSeconds > maxSeconds {
            throw Self.tooLong(path: path, seconds: declaredSeconds, maxSeconds: maxSeconds, declared: true)
        }
        if declaredSeconds > allowedSeconds(fileSize: fileSize) {
            throw AudioFileProblem(.implausibleLength, path: path, reason: String(
                format: "damaged or a decompression bomb: it declares %@ of audio in %lld bytes",
                Self.clock(declaredSeconds), fileSize))
        }
    }

    /// Throws once a decode has produced more than the bound: `frames` at `sampleRate`.
    package func checkRunning(frames: Int64, sampleRate: Int, fileSize: Int64, path: String) throws(AudioFileProblem) {
        guard sampleRate > 0 else { return }
        let seconds = Double(frames) / Double(sampleRate)
        guard seconds > allowedSeconds(fileSize: fileSize) else { return }
        if let maxSeconds, seconds > maxSeconds {
            throw Self.tooLong(path: path, seconds: seconds, maxSeconds: maxSeconds, declared: false)
        }
        throw AudioFileProblem(.implausibleLength, path: path, reason: String(
            format: "damaged or a decompression bomb: it decodes to more than %@ of audio from %lld bytes",
            Self.clock(seconds), fileSize))
    }

    private static func tooLong(path: String, seconds: Double, maxSeconds: Double, declared: Bool) -> AudioFileProblem {
        AudioFileProblem(.tooLong, path: path, reason: String(
            format: "%@ %@ of audio; the longest taken is %@", declared ? "declares" : "decodes to more than",
            clock(seconds), clock(maxSeconds)))
    }

    /// "10:00:00", "3:05", "0:07".
    static func clock(_ seconds: Double) -> String {
        let whole = Int(min(seconds, 1e12).rounded(.down))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
