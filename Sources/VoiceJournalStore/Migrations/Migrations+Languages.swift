import GRDB

extension Migrations {
    /// The language a journal is kept in and a person speaks, and whether their recordings
    /// are translated to English too.
    package static let languages = "v13-languages"
    /// An English translation stored beside a transcript.
    package static let translations = "v14-translations"

    /// `journal.language` / `person.language` (an ISO-639-1 code sent with each upload of a
    /// recording in that journal or of that person's answer; NULL lets the model detect it)
    /// and `journal.translate` / `person.translate` (ask for an English translation as well).
    static func addLanguages(_ db: Database) throws {
        for table in ["journal", "person"] {
            try db.alter(table: table) { t in
                t.add(column: "language", .text)
                t.add(column: "translate", .boolean).notNull().defaults(to: false)
            }
        }
    }

    /// `transcript.translation` (English text, NULL when none was asked or none came back),
    /// `transcript.translationSegments` (JSON, timed like `segments` on the recording's clock)
    /// and `transcript.translationNote` (why a translation that was asked for is missing).
    static func addTranslations(_ db: Database) throws {
        try db.alter(table: "transcript") { t in
            t.add(column: "translation", .text)
            t.add(column: "translationSegments", .text).notNull().defaults(to: "[]")
            t.add(column: "translationNote", .text)
        }
    }
}
