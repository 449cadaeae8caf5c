import Foundation
import GRDB

/// One word or name in a journal's vocabulary.
package struct VocabularyWord: Codable, Sendable, Equatable, FetchableRecord {
    package var word: String
    package var journal: String
    package var createdAt: Date
}

extension JournalStore {
    /// Adds words (names, terms) to a journal's vocabulary ("Personal" when none is named);
    /// a word already there moves to the front, as if added now. Says which were new.
    @discardableResult
    package func addVocabulary(_ words: [String], journal name: String?, now: Date = Date()) throws -> VocabularyAddition {
        let words = try Self.validWords(words)
        return try pool.write { db in
            let journal = try Self.journalForNewEntry(db, named: name, now: now)
            var addition = VocabularyAddition(journal: journal.name)
            for word in words {
                let known = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM vocabulary WHERE journalId = ? AND word = ?)",
                                              arguments: [journal.id, word]) ?? false
                if known { addition.known.append(word) } else { addition.added.append(word) }
                try db.execute(sql: """
                    INSERT INTO vocabulary (journalId, word, createdAt) VALUES (?, ?, ?)
                    ON CONFLICT (journalId, word) DO UPDATE SET word = excluded.word, createdAt = excluded.createdAt
                    """, arguments: [journal.id, word, now])
            }
            return addition
        }
    }

    /// A journal's vocabulary (every journal's when none is named), most recent first.
    package func vocabulary(journal name: String?) throws -> [VocabularyWord] {
        try pool.read { db in
            var condition = "1"
            var arguments: StatementArguments = []
            if let name {
                condition = "v.journalId = ?"
                arguments = [try Self.journal(db, named: name).id]
            }
            return try VocabularyWord.fetchAll(db, sql: """
                SELECT v.word, j.name AS journal, v.createdAt FROM vocabulary v JOIN journal j ON j.id = v.journalId
                WHERE \(condition) ORDER BY j.name, v.createdAt DESC, v.id DESC
                """, arguments: arguments)
        }
    }

    /// Removes words from a journal's vocabulary; a word that is not there is an error, naming it.
    package func removeVocabulary(_ words: [String], journal name: String?) throws {
        let words = try Self.validWords(words)
        try pool.write { db in
            let journal = try Self.journal(db, named: name ?? Journal.defaultName)
            for word in words {
                try db.execute(sql: "DELETE FROM vocabulary WHERE journalId = ? AND word = ?", arguments: [journal.id, word])
                guard db.changesCount > 0 else {
                    throw StoreError.notFound("\"\(word)\" is not in the vocabulary of \(journal.name); see: voicejournal vocabulary list")
                }
            }
        }
    }

    /// The vocabulary of the journal a recording belongs to (its entry's, or its question's for
    /// an answer), most recent first; empty for a file in no journal. Inside a caller's
    /// transaction (the queue reads it for each job it hands a worker).
    static func vocabulary(_ db: Database, forRecording id: Int64) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
                SELECT v.word FROM vocabulary v
                WHERE v.journalId = (SELECT coalesce(e.journalId, q.journalId) FROM recording r
                                     LEFT JOIN entry e ON e.id = r.entryId
                                     LEFT JOIN assignment a ON a.id = r.assignmentId
                                     LEFT JOIN question q ON q.id = a.questionId
                                     WHERE r.id = ?)
                ORDER BY v.createdAt DESC, v.id DESC
                """), arguments: [id])
    }

    private static func validWords(_ words: [String]) throws -> [String] {
        let trimmed = words.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard !trimmed.isEmpty else { throw StoreError.invalidInput("give at least one word") }
        return trimmed
    }
}

/// What `vocabulary add` did: the words new to the journal, and those it had already (they
/// count as used now, first in its prompt).
package struct VocabularyAddition: Sendable, Equatable {
    package var journal: String
    package var added: [String] = []
    package var known: [String] = []
}
