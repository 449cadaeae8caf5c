import VoiceJournalAudio
import Foundation

/// How recordings the API cannot take as they are get sent: the limits of one request,
/// the codec chunks are encoded with, and whether silence at the ends is left out.
public struct UploadSettings: Sendable, Equatable {
    /// `--max-request-bytes`: the largest audio upload.
    public var maxRequestBytes: Int64
    /// `--max-chunk-seconds`: the longest audio in one request.
    public var maxChunkSeconds: Double
    /// `--upload-codec`.
    public var codec: UploadCodec
    /// False with `--no-trim`.
    public var trim: Bool

    /// A file the API takes as it is and at most this long is sent without decoding it
    /// first: the thousands of short takes a journal holds stay one upload each, with no
    /// decode, and at most a minute's silence could have been trimmed from them. Longer files
    /// are measured, to leave out long silences and to cut them at pauses when they must be split.
    public static let measureAboveSeconds: Double = 60

    /// The sizes a request may be limited to: from 64 KiB (a few seconds of audio) to 4 GiB
    /// (far past any server's limit). Outside it the chunk arithmetic would overflow.
    public static let maxRequestBytesRange: ClosedRange<Int64> = 65_536...(4 << 30)
    /// The lengths a request may be limited to: from 5 s to a million seconds (11.5 days).
    public static let maxChunkSecondsRange: ClosedRange<Double> = 5...1_000_000

    /// Settings with each limit kept within its range (`maxRequestBytesRange`,
    /// `maxChunkSecondsRange`); commands refuse values outside them before this.
    public init(maxRequestBytes: Int64 = UploadPlan.defaultMaxRequestBytes,
                maxChunkSeconds: Double = UploadPlan.defaultMaxChunkSeconds,
                codec: UploadCodec = .flac, trim: Bool = true) {
        self.maxRequestBytes = min(max(maxRequestBytes, Self.maxRequestBytesRange.lowerBound), Self.maxRequestBytesRange.upperBound)
        self.maxChunkSeconds = maxChunkSeconds.isFinite
            ? min(max(maxChunkSeconds, Self.maxChunkSecondsRange.lowerBound), Self.maxChunkSecondsRange.upperBound)
            : UploadPlan.defaultMaxChunkSeconds
        self.codec = codec
        self.trim = trim
    }
}
