import Foundation
import GRDB

/// A journal's question with where it stands: never assigned, waiting for answers, answered.
package struct TimelineQuestion: Codable, Sendable, Equatable {
    /// `draft`: given to nobody yet; `awaiting`: given, no answer yet; `answered`: someone answered it.
    package enum State: String, Codable, Sendable {
        case draft, awaiting, answered
    }
    package var id: Int64
    package var text: String
    package var displayOrder: Int
    package var createdAt: Date
    package var state: State
    /// Everyone it was given to, oldest first, each with the answer's transcript once there is one.
    package var assignments: [AssignmentSummary]
}

extension JournalStore {
    /// The journal's questions in their order, each with its state and assignments.
    package func timeline(journal name: String) throws -> [TimelineQuestion] {
        try pool.read { db in
            let journal = try Self.journal(db, named: name)
            let questions = try Question.filter(Column("journalId") == journal.id).order(Column("displayOrder"), Column("id")).fetchAll(db)
            let assignments = try Self.assignmentSummaries(db, where: "q.journalId = ?", [journal.id])
            let byQuestion = Dictionary(grouping: assignments.reversed(), by: \.questionId)
            return try questions.map { question in
                let id = try question.storedId()
                let given = byQuestion[id] ?? []
                let state: TimelineQuestion.State = given.isEmpty ? .draft
                    : given.contains { $0.status == .answered } ? .answered : .awaiting
                return TimelineQuestion(id: id, text: question.text, displayOrder: question.displayOrder,
                                        createdAt: question.createdAt, state: state, assignments: given)
            }
        }
    }

    /// The person a journal is kept for, if any.
    package func dedicatedPerson(of journal: Journal) throws -> Person? {
        guard let id = journal.dedicatedToPersonId else { return nil }
        return try pool.read { db in try Person.fetchOne(db, key: id) }
    }
}
