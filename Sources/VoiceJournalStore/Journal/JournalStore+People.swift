import Foundation
import GRDB

extension JournalStore {
    /// Adds a person questions can be assigned to; names are unique (case-insensitively).
    /// `language` (a code Whisper knows) is sent with each upload of their answers, before
    /// the journal's; `translate` asks for an English translation of them too.
    public func addPerson(name: String, relationship: String?, email: String?, language: String? = nil, translate: Bool = false,
                          now: Date = Date()) throws -> Person {
        let name = try Self.validName(name, of: "person")
        let language = try language.map(Self.validLanguage)
        return try pool.write { db in
            if try Person.filter(Person.Columns.name == name).fetchOne(db) != nil {
                throw StoreError.conflict("a person named \"\(name)\" exists already")
            }
            var person = Person(name: name, relationship: relationship ?? "other", email: email, createdAt: now,
                                language: language, translate: translate)
            try person.insert(db)
            return person
        }
    }

    /// Changes the language and translation settings of the person named (a name, an id or
    /// "me"); the person as they are now.
    public func changePerson(matching reference: String, language: LanguageChange, translate: Bool? = nil) throws -> Person {
        let language = try Self.validChange(language)
        return try pool.write { db in
            var person = try Self.person(db, matching: reference)
            Self.apply(language, translate: translate, to: &person.language, &person.translate)
            try db.execute(sql: "UPDATE person SET language = ?, translate = ? WHERE id = ?",
                           arguments: [person.language, person.translate, person.id])
            return person
        }
    }

    /// Everyone, "Myself" first.
    public func people() throws -> [Person] {
        try pool.read { db in
            try Person.order(sql: "relationship = 'self' DESC, createdAt, id").fetchAll(db)
        }
    }

    /// The person named, or with this id; "me" and "myself" mean the user.
    public static func person(_ db: Database, matching reference: String) throws -> Person {
        let lowered = reference.lowercased()
        if lowered == "me" || lowered == "myself",
           let me = try Person.filter(Person.Columns.relationship == Person.selfRelationship).fetchOne(db) {
            return me
        }
        if let id = Int64(reference), let person = try Person.fetchOne(db, key: id) { return person }
        if let person = try Person.filter(Person.Columns.name == reference).fetchOne(db) { return person }
        throw StoreError.notFound("no person named \"\(reference)\"; add them with: voicejournal person add \"\(reference)\"")
    }
}
