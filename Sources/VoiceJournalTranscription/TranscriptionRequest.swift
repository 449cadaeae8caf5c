import Foundation

/// What to ask the server for, shared by every file of a run: the model and its hints.
public struct TranscriptionOptions: Sendable, Equatable {
    /// `whisper-1`, `gpt-4o-transcribe`, `gpt-4o-mini-transcribe`, or a local server's name.
    public var model: String
    /// ISO-639-1 code of the spoken language; nil lets the model detect it.
    public var language: String?
    /// Text that primes the model (names, spelling); whisper-1 reads its last 224 tokens.
    public var prompt: String?
    /// Sampling temperature, 0–1; 0 is the most deterministic.
    public var temperature: Double

    /// The default model.
    public static let defaultModel = "whisper-1"

    /// Whether `code` is a language code Whisper knows (`de`, `pl`; ISO-639-1, see
    /// `SpokenLanguage`).
    public static func isLanguageCode(_ code: String) -> Bool {
        SpokenLanguage.isKnown(code: code)
    }

    public init(model: String = TranscriptionOptions.defaultModel, language: String? = nil,
                prompt: String? = nil, temperature: Double = 0) {
        self.model = model
        self.language = language
        self.prompt = prompt
        self.temperature = temperature
    }

    /// The richest response the model offers: timed segments (`verbose_json`) where it has
    /// them, plain `json` from the gpt-4o transcribe models, which accept nothing else useful.
    public var responseFormat: ResponseFormat {
        TranscriptionRequest.isGPT4oTranscribe(model) ? .json : .verboseJSON
    }
}

/// The `response_format` values voicejournal asks for.
public enum ResponseFormat: String, Sendable, Equatable {
    case json
    case verboseJSON = "verbose_json"
}

/// Which of Whisper's two tasks an upload asks for, and so which endpoint it goes to.
public enum TranscriptionTask: String, Sendable, Equatable {
    /// `POST {base}/audio/transcriptions`: the words in the language they were said.
    case transcribe
    /// `POST {base}/audio/translations`: the words in English, from any language.
    case translate

    /// The endpoint's path under the API base.
    public var path: String {
        switch self {
        case .transcribe: "/audio/transcriptions"
        case .translate: "/audio/translations"
        }
    }
}

/// One upload: an audio file on disk and the options to transcribe (or translate) it with.
public struct TranscriptionRequest: Sendable, Equatable {
    /// The audio file; it is streamed from disk, never read whole.
    public var file: URL
    /// The name the server sees (defaults to the file's own name).
    public var filename: String
    public var options: TranscriptionOptions
    /// How much audio the file holds, in seconds, when known: the answer's deadline grows with it.
    public var audioSeconds: Double?
    /// Transcription (the default) or an English translation.
    public var task: TranscriptionTask

    public init(file: URL, filename: String? = nil, options: TranscriptionOptions, audioSeconds: Double? = nil,
                task: TranscriptionTask = .transcribe) {
        self.file = file
        self.filename = filename ?? file.lastPathComponent
        self.options = options
        self.audioSeconds = audioSeconds
        self.task = task
    }

    /// The model OpenAI's translations endpoint takes: the only one it has.
    public static let translationModel = "whisper-1"

    /// The same upload (the same file, name, prompt and temperature) asked for an English
    /// translation. The gpt-4o transcribe models have no translation: their runs translate
    /// with whisper-1. Any other model name (whisper-1, a local server's) is kept: the server
    /// that runs it says whether it can translate.
    public func translation() -> TranscriptionRequest {
        var request = self
        request.task = .translate
        if Self.isGPT4oTranscribe(options.model) { request.options.model = Self.translationModel }
        // The translations endpoint takes no language: it always answers in English.
        request.options.language = nil
        return request
    }

    /// What the answer is asked as: a translation always as `verbose_json` (whisper-1 has
    /// segments); a transcription as its model allows (`TranscriptionOptions.responseFormat`).
    public var responseFormat: ResponseFormat {
        task == .translate ? .verboseJSON : options.responseFormat
    }

    static func isGPT4oTranscribe(_ model: String) -> Bool {
        let name = model.lowercased()
        return name.hasPrefix("gpt-4o") && name.contains("transcribe")
    }

    /// The MIME type for the file part, from the name it is sent under (the API sniffs
    /// content anyway, but some compatible servers trust this).
    public var contentType: String {
        switch URL(fileURLWithPath: filename).pathExtension.lowercased() {
        case "wav": "audio/wav"
        case "flac": "audio/flac"
        case "mp3", "mpga", "mpeg": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "mp4": "audio/mp4"
        case "ogg", "oga": "audio/ogg"
        case "webm": "audio/webm"
        default: "application/octet-stream"
        }
    }

    /// The text fields of the multipart body, in the order they are sent (the `file` part
    /// goes first, separately, because it streams from disk). A translation sends no
    /// `language` and no `timestamp_granularities[]`: the translations endpoint takes neither.
    public var fields: [(name: String, value: String)] {
        var fields: [(String, String)] = [("model", options.model)]
        let format = responseFormat
        fields.append(("response_format", format.rawValue))
        if format == .verboseJSON && task == .transcribe {
            // Segments carry the model's confidence; words say when each was said (playback
            // and the review use them). Servers that time no words answer segments alone.
            fields.append(("timestamp_granularities[]", "segment"))
            fields.append(("timestamp_granularities[]", "word"))
        }
        if task == .transcribe, let language = options.language, !language.isEmpty { fields.append(("language", language)) }
        if let prompt = options.prompt, !prompt.isEmpty { fields.append(("prompt", prompt)) }
        fields.append(("temperature", Self.format(options.temperature)))
        return fields
    }

    /// Extensions the OpenAI API accepts for upload.
    public static let acceptedExtensions: Set<String> = [
        "flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm",
    ]

    /// The largest upload the OpenAI API takes; over it the server answers 413.
    public static let uploadLimitBytes: Int64 = 26_214_400

    private static func format(_ value: Double) -> String {
        // "0" and "0.2", not "0.0" and "0.20000000000000001".
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}
