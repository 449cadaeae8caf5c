import GRDB

/// What a recording's journal and person ask of its uploads.
package struct SpokenLanguageSettings: Sendable, Equatable {
    /// The person's language (an answer to an assignment), else the journal's; nil: none set.
    package var language: String?
    /// Whether the person or the journal asks for an English translation too.
    package var translate: Bool

    package init(language: String? = nil, translate: Bool = false) {
        self.language = language
        self.translate = translate
    }
}

extension JobQueue {
    /// The language and translation settings of a recording's person and journal: the
    /// person who answered (for an answer to an assignment) before the journal the recording
    /// is in (its entry's, else its question's).
    package func spokenLanguage(forRecording id: Int64) throws -> SpokenLanguageSettings {
        try pool.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT coalesce(p.language, j.language) AS language,
                       coalesce(p.translate, 0) OR coalesce(j.translate, 0) AS translate
                FROM recording r
                LEFT JOIN entry e ON e.id = r.entryId
                LEFT JOIN assignment a ON a.id = r.assignmentId
                LEFT JOIN question q ON q.id = a.questionId
                LEFT JOIN person p ON p.id = a.personId
                LEFT JOIN journal j ON j.id = coalesce(e.journalId, q.journalId)
                WHERE r.id = ?
                """), arguments: [id]) else { return SpokenLanguageSettings() }
            return SpokenLanguageSettings(language: row["language"], translate: row["translate"] ?? false)
        }
    }
}
