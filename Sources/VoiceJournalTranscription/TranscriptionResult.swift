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
    /// Segments the server placed wholly outside the audio it was sent: not part of the
    /// transcript, kept for the audit (see `bounded(toSeconds:)`).
    public var outsideAudio: [Segment] = []

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

    /// The longest word an answer may hold, in characters: no language has a word near it,
    /// and every later pass over the text (the review's loop search among them) is linear in
    /// its words' length, so a 5 MB "word" would cost seconds at each.
    static let longestWord = 1_000

    /// Decodes a successful body as the format that was asked for; every word (of the texts
    /// and of the word list) is cut to `longestWord` characters.
    /// With `audioSeconds` (the upload's length, when known) every time is bounded to it.
    static func decodeResult(_ body: Data, format: ResponseFormat, model: String, audioSeconds: Double? = nil) throws -> TranscriptionResult {
        let decoder = JSONDecoder()
        switch format {
        case .json:
            let simple = try decoder.decode(Simple.self, from: body)
            return TranscriptionResult(text: capped(simple.text), model: model)
        case .verboseJSON:
            let verbose = try decoder.decode(Verbose.self, from: body)
            let segments = (verbose.segments ?? []).map {
                TranscriptionResult.Segment(start: $0.start, end: $0.end, text: capped($0.text), avgLogprob: $0.avg_logprob,
                                            noSpeechProb: $0.no_speech_prob, compressionRatio: $0.compression_ratio)
            }
            let words = (verbose.words ?? []).map { TranscriptionResult.Word(start: $0.start, end: $0.end, word: capped($0.word)) }
            let result = TranscriptionResult(
                // verbose_json names the language ("german"): kept as its code, like the upload's.
                text: capped(verbose.text), language: SpokenLanguage.code(for: verbose.language), durationSeconds: verbose.duration,
                segments: TranscriptionResult.Segment.attaching(words, to: segments), model: model)
            return audioSeconds.map(result.bounded(toSeconds:)) ?? result
        }
    }

    /// `text` with every run of non-space characters longer than `longestWord` cut to it
    /// (the rest dropped, "…" in its place); the text itself when none is that long.
    static func capped(_ text: String) -> String {
        var run = 0
        var tooLong = false
        for character in text.unicodeScalars {
            run = character.properties.isWhitespace ? 0 : run + 1
            if run > longestWord {
                tooLong = true
                break
            }
        }
        guard tooLong else { return text }
        var result = String.UnicodeScalarView()
        run = 0
        for character in text.unicodeScalars {
            run = character.properties.isWhitespace ? 0 : run + 1
            if run <= longestWord {
                result.append(character)
            } else if run == longestWord + 1 {
                result.append("…")
            }
        }
        return String(result)
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
