import GRDB

extension Migrations {
    /// Corrections and vocabulary: the journal's words made findable and spelled right.
    package static let journalFind = "v8-journal-find"

    /// A corrected entry or transcript keeps what it said first (`originalContent`,
    /// `originalText` and `originalSegments`, NULL until the first correction) and when it was
    /// corrected; the columns stay off the record types, so storing a transcript from the
    /// queue is unchanged. `vocabulary` holds each journal's names and terms, sent as the
    /// prompt with that journal's uploads; a word is in a journal once, whatever its case.
    static func addCorrectionsAndVocabulary(_ db: Database) throws {
        try db.alter(table: "entry") { t in
            t.add(column: "originalContent", .text)
            t.add(column: "correctedAt", .datetime)
        }
        try db.alter(table: "transcript") { t in
            t.add(column: "originalText", .text)
            t.add(column: "originalSegments", .text)
            t.add(column: "correctedAt", .datetime)
        }
        try db.create(table: "vocabulary") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("journalId", .integer).notNull().references("journal", onDelete: .cascade)
            t.column("word", .text).notNull().collate(.nocase)
            t.column("createdAt", .datetime).notNull()
            t.uniqueKey(["journalId", "word"])
        }
    }
}
