import Foundation
import GRDB
import VoiceJournalLanguages

/// Which entries a listing, search or export wants.
public struct EntryFilter: Sendable, Equatable {
    public var journal: String?
    public var mood: Mood?
    public var theme: Theme?
    public var kind: EntryKind?
    /// Entries whose transcript is in this language (a code); a typed entry has none.
    public var language: String?
    /// Entries created at or after this moment.
    public var since: Date?
    /// Entries created before this moment.
    public var until: Date?
    public var limit: Int?

    public init(journal: String? = nil, mood: Mood? = nil, theme: Theme? = nil, kind: EntryKind? = nil,
                since: Date? = nil, until: Date? = nil, limit: Int? = nil, language: String? = nil) {
        self.journal = journal
        self.language = language
        self.mood = mood
        self.theme = theme
        self.kind = kind
        self.since = since
        self.until = until
        self.limit = limit
    }

    /// SQL conditions on an `entry e` joined with `journal j`, and their arguments.
    func conditions() -> (sql: [String], arguments: StatementArguments) {
        var sql: [String] = []
        var arguments: StatementArguments = []
        if let journal { sql.append("j.name = ? COLLATE NOCASE"); arguments += [journal] }
        if let mood { sql.append("e.mood = ?"); arguments += [mood] }
        if let theme { sql.append("e.theme = ?"); arguments += [theme] }
        if let kind { sql.append("e.kind = ?"); arguments += [kind] }
        if let since { sql.append("e.createdAt >= ?"); arguments += [since] }
        if let until { sql.append("e.createdAt < ?"); arguments += [until] }
        if let language = languageCondition(recording: "lr.entryId = e.id") { sql.append(language.sql); arguments += language.arguments }
        return (sql, arguments)
    }

    /// The condition that a transcript of the recordings `recording` picks (a condition on
    /// `lr`) is in the filter's language: its code, or a name an older row holds.
    func languageCondition(recording: String) -> (sql: String, arguments: StatementArguments)? {
        guard let language else { return nil }
        let forms = SpokenLanguage.storedForms(of: language)
        return ("""
            EXISTS (SELECT 1 FROM recording lr JOIN transcript lt ON lt.recordingId = lr.id
                    WHERE \(recording) AND lower(lt.language) IN (\(databaseQuestionMarks(count: forms.count))))
            """, StatementArguments(forms))
    }
}

/// An entry as listings and `entry show` present it: with its journal, recording and transcript.
public struct EntryDetails: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var journal: String
    public var kind: EntryKind
    public var title: String?
    public var content: String
    public var mood: Mood?
    public var theme: Theme?
    public var createdAt: Date
    public var recordingId: Int64?
    public var audioPath: String?
    public var durationSeconds: Double?
    /// The transcript's text, once the recording is transcribed.
    public var transcript: String?
    /// The language the transcript came back in (a code), when it is known.
    public var language: String?
    /// Where the recording's transcription job stands (`queued`, `running`, `done`, `failed`, …).
    public var transcriptionState: JobState?
    /// The transcript's timed segments, with confidence and words; nil without a transcript
    /// (and in listings that do not ask for them, see `entries(_:review:)`).
    public var segments: [Transcript.Segment]?
    /// Stretches of speech no words came back for; nil without a transcript.
    public var unheard: [Transcript.Gap]?
    /// What the server answered that the transcript leaves out, and why; nil without a transcript.
    public var leftOut: [Transcript.LeftOut]?
    /// Seconds of audio sent for the transcript; nil without one, or before it was counted.
    public var audioSentSeconds: Double?
    /// Extra uploads made to check the transcript's coverage; nil without a transcript.
    public var resends: Int?
    /// The transcript's English translation, when one was asked for and came back.
    public var translation: String?
    /// The translation's timed segments, on the recording's clock; nil without a translation
    /// (and in listings that do not ask for the review, like `segments`).
    public var translationSegments: [Transcript.Segment]?
    /// Why a translation that was asked for is missing.
    public var translationNote: String?

    /// What the entry says: its typed text, else its transcript.
    public var text: String { content.isEmpty ? (transcript ?? "") : content }
}

extension JournalStore {
    /// Adds a typed entry (text or gratitude) to a journal ("Personal" when none is named).
    public func addEntry(journal name: String?, kind: EntryKind = .text, title: String?, content: String,
                         mood: Mood?, theme: Theme?, createdAt: Date = Date()) throws -> EntryDetails {
        let content = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !content.isEmpty else { throw StoreError.invalidInput("an entry needs text: --text \"…\"") }
        return try pool.write { db in
            let journal = try Self.journalForNewEntry(db, named: name, now: createdAt)
            var entry = Entry(journalId: try journal.storedId(), kind: kind, title: title, content: content,
                              mood: mood, theme: theme, createdAt: createdAt)
            try entry.insert(db)
            return try Self.entryDetails(db, where: ["e.id = ?"], [entry.id])[0]
        }
    }

    /// Entries matching the filter, newest first; with `review`, each transcript's segments
    /// and review (`--json`, exports), else those are nil: a listing in words does not read
    /// every word's time of every entry.
    public func entries(_ filter: EntryFilter = EntryFilter(), review: Bool = false) throws -> [EntryDetails] {
        try pool.read { db in
            if let journal = filter.journal { _ = try Self.journal(db, named: journal) }
            let (conditions, arguments) = filter.conditions()
            return try Self.entryDetails(db, where: conditions, arguments, limit: filter.limit, review: review)
        }
    }

    /// The entries `filter` keeps, newest first, handed to `body` one at a time as they are
    /// read, so a listing of any length takes the memory of one entry. With `review` as in
    /// `entries(_:review:)`; `words`: the segments keep their words' times (a listing leaves
    /// them out unless asked: they are most of a transcript's bytes).
    public func forEachEntry(_ filter: EntryFilter = EntryFilter(), review: Bool, words: Bool,
                             _ body: (EntryDetails) throws -> Void) throws {
        try pool.read { db in
            if let journal = filter.journal { _ = try Self.journal(db, named: journal) }
            let (conditions, arguments) = filter.conditions()
            let (sql, all) = Self.entryDetailsQuery(where: conditions, arguments, limit: filter.limit, review: review, words: words)
            let cursor = try EntryDetails.fetchCursor(db, sql: sql, arguments: all)
            while let entry = try cursor.next() { try body(Self.withLanguageCode(entry)) }
        }
    }

    /// One entry by id.
    public func entry(id: Int64) throws -> EntryDetails {
        guard let entry = try entryIfPresent(id: id) else { throw StoreError.notFound("no entry #\(id); see: voicejournal entry list") }
        return entry
    }

    /// The entry with this id, or nil when the journal has none (deleted, or never made).
    public func entryIfPresent(id: Int64) throws -> EntryDetails? {
        try pool.read { db in try Self.entryDetails(db, where: ["e.id = ?"], [id], review: true).first }
    }

    static func entryDetails(_ db: Database, where conditions: [String], _ arguments: StatementArguments,
                             limit: Int? = nil, review: Bool = false) throws -> [EntryDetails] {
        let (sql, all) = entryDetailsQuery(where: conditions, arguments, limit: limit, review: review, words: true)
        return try EntryDetails.fetchAll(db, sql: sql, arguments: all).map(withLanguageCode)
    }

    /// The query behind `entryDetails` and `forEachEntry`.
    static func entryDetailsQuery(where conditions: [String], _ arguments: StatementArguments, limit: Int?, review: Bool,
                                  words: Bool) -> (sql: String, arguments: StatementArguments) {
        let condition = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        // Without words, SQLite drops them from each segment before the row is decoded.
        func segments(_ column: String) -> String {
            words ? column : """
                CASE WHEN \(column) IS NOT NULL THEN (SELECT json_group_array(json_remove(s.value, '$.words'))
                                                    FROM json_each(\(column)) s) END
                """
        }
        let reviewColumns = review
            ? "\(segments("t.segments")) AS segments, t.unheard, t.leftOut, t.audioSentSeconds, t.resends, "
                + "CASE WHEN t.translation IS NOT NULL THEN \(segments("t.translationSegments")) END AS translationSegments"
            : "NULL AS segments, NULL AS unheard, NULL AS leftOut, NULL AS audioSentSeconds, NULL AS resends, NULL AS translationSegments"
        // One recording per entry in practice; take the latest if several were attached.
        let sql = """
            SELECT e.id, j.name AS journal, e.kind, e.title, e.content, e.mood, e.theme, e.createdAt,
                   r.id AS recordingId, r.path AS audioPath, r.durationSeconds,
                   t.text AS transcript, t.language, t.translation, t.translationNote, \(reviewColumns),
                   (SELECT state FROM job WHERE job.recordingId = r.id ORDER BY id DESC LIMIT 1) AS transcriptionState
            FROM entry e
            JOIN journal j ON j.id = e.journalId
            LEFT JOIN recording r ON r.id = (SELECT max(id) FROM recording WHERE entryId = e.id)
            LEFT JOIN transcript t ON t.recordingId = r.id
            WHERE \(condition)
            ORDER BY e.createdAt DESC, e.id DESC
            \(limit.map { "LIMIT \($0)" } ?? "")
            """
        return (sql, arguments)
    }

    /// Rows stored before answers were kept as codes may hold the name ("english").
    static func withLanguageCode(_ entry: EntryDetails) -> EntryDetails {
        var entry = entry
        entry.language = SpokenLanguage.code(for: entry.language) ?? entry.language
        return entry
    }
}
