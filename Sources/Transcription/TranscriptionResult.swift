import Foundation

/// What the server heard in one file.
public struct TranscriptionResult: Sendable, Equatable {
    public var text: String
    /// Its ISO-639-1 code (`verbose_json` names it, "english": kept as `en`); nil when the
    /// answer names none (`json`) or one Whisper does not know.
    public var language: String?
    /// Length of the audio by the server's count, when it says.
    public var durationSeconds: Double?
    /// Timed pieces; empty when the model gives none (gpt-4o transcribe models).
    public var segments: [Segment]
    /// The model that was asked.
    public var model: String

    /// One timed piece of text, in seconds from the start of the file.
    public struct Segment: Sendable, Equatable, Codable {
        public var start: Double
        public var end: Double
        public var text: String
        /// The model's mean log probability of the segment's tokens, when the server reports it
        /// (`verbose_json`); Whisper treats below -1 as a failed decode.
        public var avgLogprob: Double?
        /// The model's probability that the segment's window held no speech, when reported.
        public var noSpeechProb: Double?
        /// gzip compression ratio of the segment's text, when reported: above ~2.4 the text
        /// repeats itself (a loop).
        public var compressionRatio: Double?
        /// The segment's words with their times, when the server gave word timestamps.
        public var words: [Word]?

        public init(start: Double, end: Double, text: String, avgLogprob: Double? = nil, noSpeechProb: Double? = nil,
                    compressionRatio: Double? = nil, words: [Word]? = nil) {
            self.start = start
            self.end = end
            self.text = text
            self.avgLogprob = avgLogprob
            self.noSpeechProb = noSpeechProb
            self.compressionRatio = compressionRatio
            self.words = words
        }
    }

    /// One word with its time, in seconds from the start of the file.
    public struct Word: Sendable, Equatable, Codable {
        public var start: Double
        public var end: Double
        public var word: String
        public init(start: Double, end: Double, word: String) {
            self.start = start
            self.end = end
            self.word = word
        }
    }

    public init(text: String, language: String? = nil, durationSeconds: Double? = nil,
                segments: [Segment] = [], model: String) {
        self.text = text
        self.language = language
        self.durationSeconds = durationSeconds
        self.segments = segments
        self.model = model
    }
}

/// The wire shapes of the API's answers, decoded with Codable.
enum WireFormat {
    /// `response_format=json`: `{"text": …, "usage": …}`.
    struct Simple: Decodable {
        let text: String
    }

    /// `response_format=verbose_json`: text, language name, duration, segments (with the
    /// model's confidence) and, when asked for, words.
    struct Verbose: Decodable {
        let text: String
        let language: String?
        let duration: Double?
        let segments: [Segment]?
        let words: [Word]?

        struct Segment: Decodable {
            let start: Double
            let end: Double
            let text: String
            let avg_logprob: Double?
            let no_speech_prob: Double?
            let compression_ratio: Double?
        }

        struct Word: Decodable {
            let word: String
            let start: Double
            let end: Double
        }
    }

    /// `{"error": {"message", "type", "param", "code"}}` — every error the API sends.
    struct ErrorEnvelope: Decodable {
        let error: Body

        struct Body: Decodable {
            let message: String?
            let type: String?
            let code: String?

            // `code` and `param` are strings, numbers or null depending on the error.
            private enum Keys: String, CodingKey { case message, type, code }
            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                message = try container.decodeIfPresent(String.self, forKey: .message)
                type = try container.decodeIfPresent(String.self, forKey: .type)
                if let text = try? container.decodeIfPresent(String.self, forKey: .code) {
                    code = text
                } else if let number = try? container.decodeIfPresent(Int.self, forKey: .code) {
                    code = String(number)
                } else {
                    code = nil
                }
            }
        }
    }

    /// Decodes a successful body as the format that was asked for.
    static func decodeResult(_ body: Data, format: ResponseFormat, model: String) throws -> TranscriptionResult {
        let decoder = JSONDecoder()
        switch format {
        case .json:
            let simple = try decoder.decode(Simple.self, from: body)
            return TranscriptionResult(text: simple.text, model: model)
        case .verboseJSON:
            let verbose = try decoder.decode(Verbose.self, from: body)
            let segments = (verbose.segments ?? []).map {
                TranscriptionResult.Segment(start: $0.start, end: $0.end, text: $0.text, avgLogprob: $0.avg_logprob,
                                            noSpeechProb: $0.no_speech_prob, compressionRatio: $0.compression_ratio)
            }
            let words = (verbose.words ?? []).map { TranscriptionResult.Word(start: $0.start, end: $0.end, word: $0.word) }
            return TranscriptionResult(
                // verbose_json names the language ("german"): kept as its code, like the upload's.
                text: verbose.text, language: SpokenLanguage.code(for: verbose.language), durationSeconds: verbose.duration,
                segments: TranscriptionResult.Segment.attaching(words, to: segments), model: model)
        }
    }

    /// The error body, if the server sent one in the API's shape.
    static func decodeError(_ body: Data) -> ErrorEnvelope.Body? {
        try? JSONDecoder().decode(ErrorEnvelope.self, from: body).error
    }
}

extension TranscriptionResult.Segment {
    /// The segments with each word (the API lists them apart, for the whole file) given to
    /// the segment its middle falls in, or else the nearest; finite times only.
    static func attaching(_ words: [TranscriptionResult.Word], to segments: [TranscriptionResult.Segment]) -> [TranscriptionResult.Segment] {
        guard !words.isEmpty, !segments.isEmpty else { return segments }
        var segments = segments
        for index in segments.indices { segments[index].words = [] }
        for word in words where word.start.isFinite && word.end.isFinite {
            let middle = (word.start + word.end) / 2
            let index = segments.firstIndex { $0.start <= middle && middle <= $0.end }
                ?? segments.indices.min { distance(middle, segments[$0]) < distance(middle, segments[$1]) } ?? 0
            segments[index].words?.append(word)
        }
        return segments
    }

    private static func distance(_ time: Double, _ segment: TranscriptionResult.Segment) -> Double {
        time < segment.start ? segment.start - time : max(time - segment.end, 0)
    }
}
