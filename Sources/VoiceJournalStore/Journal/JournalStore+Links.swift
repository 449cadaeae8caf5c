import Foundation
import GRDB

/// What an assignment's link may show: the question, who asks it, and whether it is answered.
/// Nothing else of the journal leaves the store through a link.
package struct LinkedAssignment: Sendable, Equatable {
    package var assignmentId: Int64
    package var question: String
    package var status: AssignmentStatus
    /// The token as stored, for the caller's constant-time comparison with the one it was given.
    package var linkToken: String

    package var isAnswered: Bool { status == .answered }
}

extension JournalStore {
    /// The assignment whose link token is `token`, or nil. Every token, well-formed or not,
    /// costs the same one indexed lookup, so a malformed one cannot be told from an unknown
    /// one by its timing; the caller compares the tokens in constant time.
    package func linkedAssignment(token: String) throws -> LinkedAssignment? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT a.id, a.status, a.linkToken, q.text
                FROM assignment a JOIN question q ON q.id = a.questionId
                WHERE a.linkToken = ?
                """, arguments: [token]) else { return nil }
            return LinkedAssignment(assignmentId: try row.decode(atIndex: 0), question: try row.decode(atIndex: 3),
                                    status: try row.decode(atIndex: 1), linkToken: try row.decode(atIndex: 2))
        }
    }
}
