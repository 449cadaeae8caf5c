import Foundation
import GRDB
import VoiceJournalLanguages

/// A journal with what a listing shows about it.
public struct JournalSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var name: String
    public var description: String?
    public var createdAt: Date
    public var entryCount: Int
    public var questionCount: Int
    public var lastEntryAt: Date?
    /// The language its recordings are sent with (nil: detected).
    public var language: String?
    /// Whether its recordings are translated to English too.
    public var translate: Bool
}

/// A change to a journal's or person's language: keep it, set it, or clear it (detected).
public enum LanguageChange: Sendable, Equatable {
    case keep
    case set(String)
    case clear
}

extension JournalStore {
    /// Creates a journal; the name must be new (names compare case-insensitively). With
    /// `dedicatedTo` (a name, an id or "me") it is kept for that person.
    /// `language` (a code Whisper knows) is sent with each upload of its recordings;
    /// `translate` asks for an English translation of them too.
    public func createJournal(name: String, description: String? = nil, dedicatedTo person: String? = nil,
                              language: String? = nil, translate: Bool = false, now: Date = Date()) throws -> Journal {
        let name = try Self.validName(name, of: "journal")
        let language = try language.map(Self.validLanguage)
        return try pool.write { db in
            if try Journal.filter(Journal.Columns.name == name).fetchOne(db) != nil {
                throw StoreError.conflict("a journal named \"\(name)\" exists already")
            }
            let personId = try person.map { try Self.person(db, matching: $0).id }
            var journal = Journal(name: name, description: description, dedicatedToPersonId: personId ?? nil, createdAt: now,
                                  language: language, translate: translate)
            try journal.insert(db)
            return journal
        }
    }

    /// Every journal, oldest first, with entry and question counts.
    public func journals() throws -> [JournalSummary] {
        try pool.read { db in
            try JournalSummary.fetchAll(db, sql: """
                SELECT j.id, j.name, j.description, j.createdAt,
                       (SELECT count(*) FROM entry e WHERE e.journalId = j.id) AS entryCount,
                       (SELECT count(*) FROM question q WHERE q.journalId = j.id) AS questionCount,
                       (SELECT max(e.createdAt) FROM entry e WHERE e.journalId = j.id) AS lastEntryAt,
                       j.language, j.translate
                FROM journal j ORDER BY j.createdAt, j.id
                """)
        }
    }

    /// Changes the journal's language and translation settings; the journal as it is now.
    public func changeJournal(named name: String, language: LanguageChange, translate: Bool? = nil) throws -> Journal {
        let language = try Self.validChange(language)
        return try pool.write { db in
            var journal = try Self.journal(db, named: name)
            Self.apply(language, translate: translate, to: &journal.language, &journal.translate)
            try db.execute(sql: "UPDATE journal SET language = ?, translate = ? WHERE id = ?",
                           arguments: [journal.language, journal.translate, journal.id])
            return journal
        }
    }

    /// The journal with this name; the error lists the journals there are.
    public func journal(named name: String) throws -> Journal {
        try pool.read { db in try Self.journal(db, named: name) }
    }

    /// The journal with this name, looked up inside a caller's transaction.
    public static func journal(_ db: Database, named name: String) throws -> Journal {
        if let journal = try Journal.filter(Journal.Columns.name == name).fetchOne(db) { return journal }
        let names = try String.fetchAll(db, sql: "SELECT name FROM journal ORDER BY name")
        let known = names.isEmpty ? "there are no journals yet" : "journals: " + names.joined(separator: ", ")
        throw StoreError.notFound("no journal named \"\(name)\" (\(known)); create it with: voicejournal journal create \"\(name)\"")
    }

    /// The named journal, created on first use when it is the default one ("Personal"), so
    /// `entry add` and `record` work on a fresh home without set-up.
    public static func journalForNewEntry(_ db: Database, named name: String?, now: Date = Date()) throws -> Journal {
        let name = name ?? Journal.defaultName
        if name.caseInsensitiveCompare(Journal.defaultName) == .orderedSame,
           try Journal.filter(Journal.Columns.name == name).fetchOne(db) == nil {
            var journal = Journal(name: Journal.defaultName, description: "Everyday entries", createdAt: now)
            try journal.insert(db)
            return journal
        }
        return try journal(db, named: name)
    }

    /// A language code as stored (lower case), refusing one Whisper does not know.
    static func validLanguage(_ code: String) throws -> String {
        if let problem = SpokenLanguage.problem(with: code) { throw StoreError.invalidInput(problem) }
        return code.trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func validChange(_ change: LanguageChange) throws -> LanguageChange {
        if case .set(let code) = change { return .set(try validLanguage(code)) }
        return change
    }

    static func apply(_ change: LanguageChange, translate: Bool?, to language: inout String?, _ translating: inout Bool) {
        switch change {
        case .keep: break
        case .set(let code): language = code
        case .clear: language = nil
        }
        if let translate { translating = translate }
    }

    /// Trims a user-given name and refuses an empty one.
    static func validName(_ name: String, of thing: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StoreError.invalidInput("a \(thing) needs a name") }
        return trimmed
    }
}
