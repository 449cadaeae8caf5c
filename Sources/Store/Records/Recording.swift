import Foundation
import GRDB

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
    public var fileStamp: FileStamp? {
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

    /// One timed piece of a transcript, in seconds from the start of the recording.
    public struct Segment: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var text: String
        public init(start: Double, end: Double, text: String) {
            self.start = start
            self.end = end
            self.text = text
        }
    }

    public init(id: Int64? = nil, recordingId: Int64, text: String, language: String? = nil, model: String,
                segments: [Segment] = [], createdAt: Date = Date()) {
        self.id = id
        self.recordingId = recordingId
        self.text = text
        self.language = language
        self.model = model
        self.segments = segments
        self.createdAt = createdAt
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
            json += "}"
        }
        return json + "]"
    }

    private static func number(_ value: Double) -> String {
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
