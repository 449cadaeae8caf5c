import Foundation
import GRDB

/// A question with its journal's name, for listings.
public struct QuestionSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var journal: String
    public var text: String
    public var displayOrder: Int
    public var assignmentCount: Int
    public var createdAt: Date
}

/// An assignment with the question, the person and (once answered) the transcript.
public struct AssignmentSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var questionId: Int64
    public var question: String
    public var journal: String
    public var personId: Int64
    public var person: String
    public var status: AssignmentStatus
    public var linkToken: String
    public var createdAt: Date
    public var sentAt: Date?
    public var answeredAt: Date?
    /// Reminders sent (or that may have arrived), and the last one's time.
    public var reminderCount: Int = 0
    public var lastReminderAt: Date?
    public var recordingId: Int64?
    /// The answer's transcript text, once transcribed.
    public var transcript: String?
}

extension JournalStore {
    /// Adds a question at the end of a journal's list.
    public func addQuestion(journal name: String, text: String, now: Date = Date()) throws -> Question {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw StoreError.invalidInput("a question needs text") }
        return try pool.write { db in
            let journal = try Self.journal(db, named: name)
            let last = try Int.fetchOne(db, sql: "SELECT max(displayOrder) FROM question WHERE journalId = ?",
                                        arguments: [journal.id]) ?? 0
            var question = Question(journalId: try journal.storedId(), text: text, displayOrder: last + 1, createdAt: now)
            try question.insert(db)
            return question
        }
    }

    /// Questions in list order, of one journal or of all.
    public func questions(journal name: String? = nil) throws -> [QuestionSummary] {
        try pool.read { db in
            var sql = """
                SELECT q.id, j.name AS journal, q.text, q.displayOrder, q.createdAt,
                       (SELECT count(*) FROM assignment a WHERE a.questionId = q.id) AS assignmentCount
                FROM question q JOIN journal j ON j.id = q.journalId
                """
            var arguments: StatementArguments = []
            if let name {
                let journal = try Self.journal(db, named: name)
                sql += " WHERE q.journalId = ?"
                arguments = [journal.id]
            }
            return try QuestionSummary.fetchAll(db, sql: sql + " ORDER BY j.name, q.displayOrder", arguments: arguments)
        }
    }

    /// Gives a question to a person, with a fresh unguessable link token.
    public func assign(questionId: Int64, to personReference: String, now: Date = Date()) throws -> AssignmentSummary {
        try pool.write { db in
            guard try Question.fetchOne(db, key: questionId) != nil else {
                throw StoreError.notFound("no question #\(questionId); see: voicejournal question list")
            }
            let person = try Self.person(db, matching: personReference)
            // One open assignment per question and person; once answered it may be asked again.
            if let open = try Assignment.filter(Assignment.Columns.questionId == questionId && Assignment.Columns.personId == person.id
                                                && Assignment.Columns.status != AssignmentStatus.answered.rawValue).fetchOne(db),
               let openId = open.id {
                throw StoreError.conflict("question #\(questionId) is already assigned to \(person.name) as assignment "
                    + "#\(openId) (\(open.status.rawValue)); answer it with: voicejournal answer \(openId)")
            }
            var assignment = Assignment(questionId: questionId, personId: try person.storedId(),
                                        linkToken: Self.newLinkToken(), createdAt: now)
            try assignment.insert(db)
            return try Self.assignmentSummaries(db, where: "a.id = ?", [assignment.id])[0]
        }
    }

    /// Assignments, newest first, optionally only those with one status.
    public func assignments(status: AssignmentStatus? = nil) throws -> [AssignmentSummary] {
        try pool.read { db in
            if let status { return try Self.assignmentSummaries(db, where: "a.status = ?", [status]) }
            return try Self.assignmentSummaries(db, where: "1", [])
        }
    }

    static func assignmentSummaries(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [AssignmentSummary] {
        try AssignmentSummary.fetchAll(db, sql: """
            SELECT a.id, a.questionId, q.text AS question, j.name AS journal, a.personId, p.name AS person,
                   a.status, a.linkToken, a.createdAt, a.sentAt, a.answeredAt, a.reminderCount, a.lastReminderAt,
                   r.id AS recordingId, t.text AS transcript
            FROM assignment a
            JOIN question q ON q.id = a.questionId
            JOIN journal j ON j.id = q.journalId
            JOIN person p ON p.id = a.personId
            LEFT JOIN recording r ON r.id = (SELECT max(id) FROM recording WHERE assignmentId = a.id)
            LEFT JOIN transcript t ON t.recordingId = r.id
            WHERE \(condition)
            ORDER BY a.createdAt DESC, a.id DESC
            """, arguments: arguments)
    }

    /// 16 random bytes as hex: enough that a link cannot be guessed.
    static func newLinkToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
