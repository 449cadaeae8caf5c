import Foundation

/// How audio that cannot be sent as it is gets encoded for upload: always 16 kHz mono.
///
/// Sizes are for 16 kHz mono speech. The worst case is what the plan budgets with, so an encoded
/// chunk never turns out over the request limit; the typical size is what uploads usually cost.
public enum UploadCodec: String, Sendable, Equatable, CaseIterable, Codable {
    /// Lossless, 16-bit, accepted by every server and model. About 6.7 kB/s of speech.
    case flac
    /// Lossy and about a fifth of FLAC's size (~1.5 kB/s); accepted by every model.
    case mp3
    /// Lossy, in an Ogg container (~3.7 kB/s). whisper-1 takes it as `.ogg` (never `.opus`);
    /// the gpt-4o transcribe models are reported to refuse some Ogg/Opus uploads.
    case opus

    /// The file name ending the server recognises the container by.
    public var fileExtension: String {
        switch self {
        case .flac: "flac"
        case .mp3: "mp3"
        case .opus: "ogg"
        }
    }

    /// The most bytes one second can take, whatever the audio.
    ///
    /// - FLAC falls back to verbatim frames on audio it cannot predict (noise), so 16-bit PCM's
    ///   32,000 B/s plus 3 % for frame headers and the stream header's share.
    /// - MP3 at 16 kHz is MPEG-2 Layer III, whose largest frame bitrate is 160 kbit/s.
    /// - Opus: libsndfile encodes variable bitrate around a target far below this; 128 kbit/s
    ///   is the most a mono voice stream is ever given, so the bound holds with room to spare.
    public var worstCaseBytesPerSecond: Double {
        switch self {
        case .flac: 33_000
        case .mp3: 20_000
        case .opus: 16_000
        }
    }

    /// What one second of speech usually takes (measured on 16 kHz mono speech), for estimates
    /// shown to people; plans use `worstCaseBytesPerSecond`.
    public var typicalBytesPerSecond: Double {
        switch self {
        case .flac: 6_700
        case .mp3: 1_500
        case .opus: 3_700
        }
    }
}
