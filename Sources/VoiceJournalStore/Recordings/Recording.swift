import Foundation
import GRDB
import VoiceJournalLanguages

/// An audio file voicejournal knows: captured by `record` (under the home) or found by
/// `transcribe` (its path stored, the file not copied). The same content is stored once.
public struct Recording: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "recording"
    public var id: Int64?
    public var path: String
    /// Hex SHA-256 of the file's bytes; nil while the file is still being captured.
    public var sha256: String?
    /// Counted in captured (or decoded) frames, never by the wall clock.
    public var durationSeconds: Double
    public var sampleRate: Int
    public var channels: Int
    /// The container, e.g. `wav`, `flac`, `mp3`.
    public var format: String
    public var sizeBytes: Int64
    /// The file's modification time when it was hashed (nanoseconds since 1970); with
    /// `sizeBytes` the stamp checked before upload. Nil: not known, hash again before upload.
    public var modifiedNanoseconds: Int64?
    public var peakDBFS: Double?
    public var rmsDBFS: Double?
    public var state: RecordingState
    public var entryId: Int64?
    public var assignmentId: Int64?
    /// Lets a caller retry an insert without creating a second row.
    public var idempotencyKey: String?
    public var createdAt: Date

    public init(id: Int64? = nil, path: String, sha256: String? = nil, durationSeconds: Double = 0,
                sampleRate: Int, channels: Int, format: String, sizeBytes: Int64 = 0, modifiedNanoseconds: Int64? = nil,
                peakDBFS: Double? = nil, rmsDBFS: Double? = nil, state: RecordingState,
                entryId: Int64? = nil, assignmentId: Int64? = nil, idempotencyKey: String? = nil,
                createdAt: Date = Date()) {
        self.id = id
        self.path = path
        self.sha256 = sha256
        self.durationSeconds = durationSeconds
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds
        self.peakDBFS = peakDBFS
        self.rmsDBFS = rmsDBFS
        self.state = state
        self.entryId = entryId
        self.assignmentId = assignmentId
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The file's size and modification time when it was hashed, if known.
    package var fileStamp: FileStamp? {
        get { modifiedNanoseconds.map { FileStamp(sizeBytes: sizeBytes, modifiedNanoseconds: $0) } }
        set {
            modifiedNanoseconds = newValue?.modifiedNanoseconds
            if let newValue { sizeBytes = newValue.sizeBytes }
        }
    }
}

/// The text of one recording, with its timed segments.
public struct Transcript: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "transcript"
    public var id: Int64?
    public var recordingId: Int64
    public var text: String
    /// ISO-639-1 code or the name the server gave (`verbose_json` says "english").
    public var language: String?
    public var model: String
    /// Stored as JSON text.
    public var segments: [Segment]
    public var createdAt: Date
    /// Stretches of speech that no words came back for, even when sent again on their own:
    /// shown as `[unheard mm:ss–mm:ss]` rather than dropped silently. JSON text.
    public var unheard: [Gap]
    /// What the server answered that is not in `text`, with why (words over silence, a
    /// repetition loop, a segment the model itself judged no speech): kept for audit. JSON text.
    public var leftOut: [LeftOut]
    /// Seconds of audio uploaded for this transcript, chunks, live pieces and re-sends
    /// included; nil for transcripts stored before this was counted.
    public var audioSentSeconds: Double?
    /// How many extra uploads were made to check coverage (a stretch of speech or a loop
    /// sent again on its own).
    public var resends: Int
    /// The English translation, when one was asked for and came back (the original `text`
    /// is always kept beside it).
    public var translation: String?
    /// The translation's timed segments, on the recording's clock like `segments`. JSON text.
    public var translationSegments: [Segment]
    /// Why a translation that was asked for is missing (the model cannot translate, what the
    /// server answered); nil when there is one or none was asked.
    public var translationNote: String?

    /// One timed piece of a transcript, in seconds from the start of the recording.
    public struct Segment: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var text: String
        /// Mean log probability of its tokens, as the server reported it (nil: not reported).
        public var avgLogprob: Double?
        /// The model's probability that no one spoke here, as reported.
        public var noSpeechProb: Double?
        /// Its words with their times on the recording's clock, when the server gave them.
        public var words: [Word]?

        public init(start: Double, end: Double, text: String, avgLogprob: Double? = nil,
                    noSpeechProb: Double? = nil, words: [Word]? = nil) {
            self.start = start
            self.end = end
            self.text = text
            self.avgLogprob = avgLogprob
            self.noSpeechProb = noSpeechProb
            self.words = words
        }

        /// Below this mean log probability Whisper itself treats a decode as failed.
        public static let lowConfidenceLogprob = -1.0

        /// Whether the model was unsure of it (`avgLogprob` below -1): shown marked.
        public var isLowConfidence: Bool { (avgLogprob ?? 0) < Self.lowConfidenceLogprob }
    }

    /// One word and when it was said, in seconds from the start of the recording.
    public struct Word: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var word: String
        public init(start: Double, end: Double, word: String) {
            self.start = start
            self.end = end
            self.word = word
        }
    }

    /// A stretch of the recording, in seconds from its start.
    public struct Gap: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// Text the server answered that the transcript leaves out, and why.
    public struct LeftOut: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var text: String
        /// `silence` (its time lies where no one spoke), `no-speech` (the model's own
        /// no-speech probability and log probability say so), `repetition` (a phrase said
        /// three or more times in a row, or a compression ratio above 2.4).
        public var reason: String
        public init(start: Double, end: Double, text: String, reason: String) {
            self.start = start
            self.end = end
            self.text = text
            self.reason = reason
        }
    }

    public init(id: Int64? = nil, recordingId: Int64, text: String, language: String? = nil, model: String,
                segments: [Segment] = [], createdAt: Date = Date(), unheard: [Gap] = [], leftOut: [LeftOut] = [],
                audioSentSeconds: Double? = nil, resends: Int = 0,
                translation: String? = nil, translationSegments: [Segment] = [], translationNote: String? = nil) {
        self.translation = translation
        self.translationSegments = translationSegments
        self.translationNote = translationNote
        self.id = id
        self.recordingId = recordingId
        self.text = text
        self.language = language
        self.model = model
        self.segments = segments
        self.createdAt = createdAt
        self.unheard = unheard
        self.leftOut = leftOut
        self.audioSentSeconds = audioSentSeconds
        self.resends = resends
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Transcript.Segment {
    /// Segments as the `segments` column holds them (a JSON array of {start, end, text}),
    /// written directly: the hot path of storing a transcript should not go through an
    /// Encoder. Reading goes through the record's Codable decoding.
    static func json(_ segments: [Transcript.Segment]) -> String {
        var json = "["
        for (index, segment) in segments.enumerated() {
            if index > 0 { json += "," }
            json += "{\"start\":\(number(segment.start)),\"end\":\(number(segment.end)),\"text\":"
            appendQuoted(segment.text, to: &json)
            if let value = segment.avgLogprob, value.isFinite { json += ",\"avgLogprob\":\(value)" }
            if let value = segment.noSpeechProb, value.isFinite { json += ",\"noSpeechProb\":\(value)" }
            if let words = segment.words {
                json += ",\"words\":["
                for (index, word) in words.enumerated() {
                    if index > 0 { json += "," }
                    json += "{\"start\":\(number(word.start)),\"end\":\(number(word.end)),\"word\":"
                    appendQuoted(word.word, to: &json)
                    json += "}"
                }
                json += "]"
            }
            json += "}"
        }
        return json + "]"
    }

    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }

    private static func appendQuoted(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                json += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}

extension Transcript {
    /// A list the way a JSON text column holds it (`unheard`, `leftOut`).
    static func jsonText(_ value: some Encodable) -> String {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

extension Transcript {
    private enum CodingKeys: String, CodingKey {
        case id, recordingId, text, language, model, segments, createdAt, unheard, leftOut, audioSentSeconds, resends
        case translation, translationSegments, translationNote
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        recordingId = try container.decode(Int64.self, forKey: .recordingId)
        text = try container.decode(String.self, forKey: .text)
        // Rows stored before answers were kept as codes may hold the name ("english").
        let language = try container.decodeIfPresent(String.self, forKey: .language)
        self.language = SpokenLanguage.code(for: language) ?? language
        model = try container.decode(String.self, forKey: .model)
        segments = try container.decode([Segment].self, forKey: .segments)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        unheard = try container.decode([Gap].self, forKey: .unheard)
        leftOut = try container.decode([LeftOut].self, forKey: .leftOut)
        audioSentSeconds = try container.decodeIfPresent(Double.self, forKey: .audioSentSeconds)
        resends = try container.decode(Int.self, forKey: .resends)
        translation = try container.decodeIfPresent(String.self, forKey: .translation)
        translationSegments = try container.decode([Segment].self, forKey: .translationSegments)
        translationNote = try container.decodeIfPresent(String.self, forKey: .translationNote)
    }

    /// Every key, `null` or empty when there is nothing (`--json`, exports, sidecars), so a
    /// reader finds the same keys on every transcript; a row holds every column.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(recordingId, forKey: .recordingId)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(model, forKey: .model)
        try container.encode(segments, forKey: .segments)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(unheard, forKey: .unheard)
        try container.encode(leftOut, forKey: .leftOut)
        try container.encode(audioSentSeconds, forKey: .audioSentSeconds)
        try container.encode(resends, forKey: .resends)
        try container.encode(translation, forKey: .translation)
        try container.encode(translationSegments, forKey: .translationSegments)
        try container.encode(translationNote, forKey: .translationNote)
    }
}

extension Transcript.Segment {
    private enum CodingKeys: String, CodingKey {
        case start, end, text, avgLogprob, noSpeechProb, lowConfidence, words
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try container.decode(Double.self, forKey: .start), end: try container.decode(Double.self, forKey: .end),
                  text: try container.decode(String.self, forKey: .text),
                  avgLogprob: try container.decodeIfPresent(Double.self, forKey: .avgLogprob),
                  noSpeechProb: try container.decodeIfPresent(Double.self, forKey: .noSpeechProb),
                  words: try container.decodeIfPresent([Transcript.Word].self, forKey: .words))
    }

    /// Every key, `null` when the server did not report it, and `lowConfidence` (derived from
    /// `avgLogprob`, never read back) so a reader need not know the threshold. Written the
    /// same everywhere, a chunk's stored result included: readers skip the derived key.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(text, forKey: .text)
        // A number JSON cannot hold (NaN, infinity) is as good as not reported.
        try container.encode(avgLogprob.flatMap { $0.isFinite ? $0 : nil }, forKey: .avgLogprob)
        try container.encode(noSpeechProb.flatMap { $0.isFinite ? $0 : nil }, forKey: .noSpeechProb)
        try container.encode(isLowConfidence, forKey: .lowConfidence)
        try container.encode(words, forKey: .words)
    }
}
