import Foundation
import GRDB

extension JournalStore {
    /// Adds a person questions can be assigned to; names are unique (case-insensitively).
    public func addPerson(name: String, relationship: String?, email: String?, now: Date = Date()) throws -> Person {
        let name = try Self.validName(name, of: "person")
        return try pool.write { db in
            if try Person.filter(Person.Columns.name == name).fetchOne(db) != nil {
                throw StoreError.conflict("a person named \"\(name)\" exists already")
            }
            var person = Person(name: name, relationship: relationship ?? "other", email: email, createdAt: now)
            try person.insert(db)
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
