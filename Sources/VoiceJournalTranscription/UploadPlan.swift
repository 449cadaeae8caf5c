import VoiceJournalAudio
import Foundation

/// How one recording goes to the server: as it is, encoded whole, or split into chunks.
///
/// The rule, in order:
/// 1. No speech in it (`SpeechExtent.silent`): nothing is sent, since Whisper answers silence
///    with invented text.
/// 2. As it is, when the API accepts its container (flac m4a mp3 mp4 mpeg mpga oga ogg wav webm;
///    not AIFF, CAF, W64, `.opus`…), its size is within `maxRequestBytes`, its length within
///    both `maxChunkSeconds` and the model's cap, and trimming would not leave out much:
///    with `trim` on, at least `trimWorthSeconds` of silence before the first and after the
///    last speech is worth an encode (a take's usual second of lead-in is not). Ogg files are
///    not sent as they are to the gpt-4o transcribe models, which are reported to refuse some
///    Ogg/Opus uploads.
/// 3. Encoded whole (16 kHz mono, the chosen codec) when what would be sent (trimmed, if
///    trimming) fits one chunk: at most `chunkSeconds`, the smallest of `maxChunkSeconds`, the
///    model's cap, and the seconds of the codec's worst case that fit in `maxRequestBytes`.
/// 4. Otherwise split into chunks of at most `chunkSeconds` (see `ChunkPlanner`).
public struct UploadPlan: Sendable, Equatable {
    /// What to do with the recording.
    public enum Decision: Sendable, Equatable {
        /// No speech: upload nothing and store an empty transcript.
        case nothingToSend
        /// Upload the file unchanged.
        case asIs
        /// Encode the (trimmed) audio as one file with the codec and upload that.
        case transcode(UploadCodec)
        /// Encode chunks of at most `chunkSeconds` each with the codec and upload each.
        case split(UploadCodec)
    }

    /// The request size the server accepts: a bigger request is answered with 413.
    public static let serverRequestLimitBytes: Int64 = 26_214_400
    /// Room left in a request for everything but the audio. The multipart envelope (boundaries,
    /// the file name, model, language, response format, temperature) stays under 2 KiB; the
    /// prompt is the only field of unbounded size, and 64 KiB holds one many times longer than
    /// the 224 tokens whisper-1 reads.
    public static let envelopeRoomBytes: Int64 = 65_536
    /// The default for `--max-request-bytes`.
    public static let defaultMaxRequestBytes: Int64 = serverRequestLimitBytes - envelopeRoomBytes
    /// The default for `--max-chunk-seconds`. Ten minutes keeps every chunk under the gpt-4o
    /// models' 1400 s cap and within one request even at FLAC's worst case (19.8 MB), and cuts
    /// an hour into about seven chunks (each cut falls in a pause before the limit) that run at
    /// once with `--jobs 8`. Measured by `scripts/bench/bench-long`: shorter limits are no faster
    /// there but add seams, where a word can be cut, and requests (450 s leaves an hour's last
    /// two chunks waiting for a worker).
    public static let defaultMaxChunkSeconds: Double = 600
    /// The longest audio the gpt-4o transcribe models accept in one request.
    public static let gpt4oTranscribeCapSeconds: Double = 1400
    /// Containers the transcription API accepts, by file name ending.
    public static let acceptedExtensions: Set<String> = [
        "flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm",
    ]
    /// Names of one container: a file named with any of them holds what its probed format says.
    static let sameContainer: [String: Set<String>] = [
        "mp3": ["mp3", "mpga", "mpeg"], "oga": ["oga", "ogg"], "ogg": ["oga", "ogg"],
        "m4a": ["m4a", "mp4", "m4b"], "mp4": ["m4a", "mp4", "m4b"], "aiff": ["aiff", "aif", "aifc"],
        "webm": ["webm", "mka", "mkv"], "mka": ["webm", "mka", "mkv"],
    ]

    /// The name a recording is uploaded under: its own name when its extension names the
    /// container its bytes hold (`format`, as the probe found it), else the name with that
    /// container's extension, so the server never decodes MP3 bytes as a WAV because of a
    /// name (the type sent, `TranscriptionRequest.contentType`, follows the name).
    public static func uploadFilename(for file: URL, format: String) -> String {
        let own = file.pathExtension.lowercased(), container = format.lowercased()
        let name = file.lastPathComponent
        guard !container.isEmpty, container != "audio", own != container, sameContainer[container]?.contains(own) != true else {
            return name
        }
        // A known audio extension is replaced; anything else after a dot is part of the name.
        let known = acceptedExtensions.contains(own) || sameContainer.keys.contains(own)
            || ["aif", "aifc", "caf", "w64", "wma", "amr", "aac", "mka", "mkv", "m4b", "opus", "au", "snd"].contains(own)
        let base = known ? file.deletingPathExtension().lastPathComponent : name
        // libsndfile calls any Ogg file "oga"; ".ogg" is the name every server knows.
        return base + "." + (container == "oga" ? "ogg" : container)
    }

    /// Silence at the two ends worth an encode to leave out.
    public static let trimWorthSeconds: Double = 5

    /// The decision.
    public var decision: Decision
    /// The longest chunk to plan with `ChunkPlanner` when encoding (for `.transcode` the whole
    /// trimmed audio fits in one).
    public var chunkSeconds: Double

    public init(decision: Decision, chunkSeconds: Double) {
        self.decision = decision
        self.chunkSeconds = chunkSeconds
    }

    /// The longest audio `model` accepts in one request, or nil when it has no cap of its own
    /// (whisper-1, local models): any gpt-4o transcribe model is capped at 1400 s.
    public static func durationCapSeconds(model: String) -> Double? {
        let name = model.lowercased()
        return name.hasPrefix("gpt-4o") && name.contains("transcribe") ? gpt4oTranscribeCapSeconds : nil
    }

    /// The plan for one recording.
    /// - Parameters:
    ///   - fileExtension: the container its bytes hold, as probed (the recording's `format`:
    ///     a WAV holding MP3 is "mp3"), with or without the dot, any case.
    ///   - sizeBytes: the file's size.
    ///   - durationSeconds: the audio's length.
    ///   - speech: where speech begins and ends (from a `SpeechMap`).
    ///   - model: the model asked for.
    ///   - codec: the codec used when the file is not sent as it is.
    ///   - maxRequestBytes: the largest audio upload (`--max-request-bytes`).
    ///   - maxChunkSeconds: the longest audio in one request (`--max-chunk-seconds`).
    ///   - trim: leave out silence before and after the speech.
    ///   - paddingSeconds: silence kept around speech when trimming (as `ChunkPlanner`'s).
    ///   - speechOnlyLeavesOut: with `trim`, the seconds an upload of the speech alone would
    ///     leave out (`PauseShortening.leftOutSeconds`): the file goes as it is only when that
    ///     is less than `PauseShortening.worthSeconds`.
    package static func make(fileExtension: String, sizeBytes: Int64, durationSeconds: Double,
                            speech: SpeechExtent, model: String, codec: UploadCodec = .flac,
                            maxRequestBytes: Int64 = defaultMaxRequestBytes,
                            maxChunkSeconds: Double = defaultMaxChunkSeconds,
                            trim: Bool = true, paddingSeconds: Double = 0.25,
                            speechOnlyLeavesOut: Double? = nil) -> UploadPlan {
        let durationLimit = min(maxChunkSeconds, durationCapSeconds(model: model) ?? .infinity)
        let chunkSeconds = min(durationLimit, Double(max(maxRequestBytes, 0)) / codec.worstCaseBytesPerSecond)
        func plan(_ decision: Decision) -> UploadPlan { UploadPlan(decision: decision, chunkSeconds: chunkSeconds) }

        var sentSeconds = durationSeconds
        switch speech {
        case .silent:
            return plan(.nothingToSend)
        case .notMeasured:
            break
        case .spans(let first, let last):
            if trim {
                sentSeconds = min(durationSeconds, max(last + paddingSeconds, 0) - max(first - paddingSeconds, 0))
            }
        }
        var worthLeavingOut = trimWorthSeconds
        if trim, let leftOut = speechOnlyLeavesOut {
            sentSeconds = min(sentSeconds, max(durationSeconds - leftOut, 0))
            worthLeavingOut = PauseShortening().worthSeconds
        }
        let name = fileExtension.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let refusedByModel = durationCapSeconds(model: model) != nil && ["ogg", "oga"].contains(name)
        if acceptedExtensions.contains(name), !refusedByModel,
           sizeBytes <= maxRequestBytes, durationSeconds <= durationLimit,
           durationSeconds - sentSeconds < worthLeavingOut {
            return plan(.asIs)
        }
        return plan(sentSeconds <= chunkSeconds ? .transcode(codec) : .split(codec))
    }
}
