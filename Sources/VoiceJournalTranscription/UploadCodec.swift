import VoiceJournalAudio
import Foundation

/// What an upload codec (`Audio.UploadCodec`: always 16 kHz mono) costs in bytes, for planning.
///
/// Sizes are for 16 kHz mono speech. The worst case is what the plan budgets with, so an encoded
/// chunk never turns out over the request limit; the typical size is what uploads usually cost.
extension UploadCodec {
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
