import Foundation
import GRDB

/// A journal with what a listing shows about it.
public struct JournalSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var name: String
    public var description: String?
    public var createdAt: Date
    public var entryCount: Int
    public var questionCount: Int
    public var lastEntryAt: Date?
}

extension JournalStore {
    /// Creates a journal; the name must be new (names compare case-insensitively). With
    /// `dedicatedTo` (a name, an id or "me") it is kept for that person.
    public func createJournal(name: String, description: String? = nil, dedicatedTo person: String? = nil,
                              now: Date = Date()) throws -> Journal {
        let name = try Self.validName(name, of: "journal")
        return try pool.write { db in
            if try Journal.filter(Journal.Columns.name == name).fetchOne(db) != nil {
                throw StoreError.conflict("a journal named \"\(name)\" exists already")
            }
            let personId = try person.map { try Self.person(db, matching: $0).id }
            var journal = Journal(name: name, description: description, dedicatedToPersonId: personId ?? nil, createdAt: now)
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
                       (SELECT max(e.createdAt) FROM entry e WHERE e.journalId = j.id) AS lastEntryAt
                FROM journal j ORDER BY j.createdAt, j.id
                """)
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

    /// Trims a user-given name and refuses an empty one.
    static func validName(_ name: String, of thing: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StoreError.invalidInput("a \(thing) needs a name") }
        return trimmed
    }
}
