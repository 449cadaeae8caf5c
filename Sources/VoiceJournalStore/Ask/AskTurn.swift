import Foundation
import GRDB

/// A conversation with the journal: its turns, in order.
public struct AskConversation: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "ask_conversation"
    public var id: Int64?
    /// The first question, as asked.
    public var title: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64? = nil, title: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One question and its answer, as kept: which passages were sent (by entry and time), the
/// answer as checked, its citations, and what it cost.
public struct AskTurn: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "ask_turn"

    /// A passage sent, by where it is (its words are the entry's, or the answer's, read again
    /// when shown): an entry, or the answer to an assignment (`ask --person`).
    public struct PassageRef: Codable, Sendable, Equatable {
        public var number: Int
        public var entryId: Int64?
        public var assignmentId: Int64?
        public var start: Double?
        public var end: Double?
        public init(number: Int, entryId: Int64?, assignmentId: Int64? = nil, start: Double?, end: Double?) {
            self.number = number
            self.entryId = entryId
            self.assignmentId = assignmentId
            self.start = start
            self.end = end
        }
    }

    public var id: Int64?
    public var conversationId: Int64
    public var question: String
    public var rangeText: String?
    public var rangeStart: Date?
    public var rangeEnd: Date?
    public var passages: [PassageRef]
    public var facts: [String]
    public var answer: String
    public var cited: [Int]
    public var removed: [Int]
    public var incomplete: String?
    public var model: String
    public var endpointHost: String
    public var promptVersion: String
    public var inputTokens: Int
    public var outputTokens: Int
    public var seconds: Double
    public var firstTextSeconds: Double?
    /// Dollars; nil when the endpoint's prices are not known.
    public var cost: Double?
    public var createdAt: Date

    public init(id: Int64? = nil, conversationId: Int64, question: String, rangeText: String?, rangeStart: Date?, rangeEnd: Date?,
                passages: [PassageRef], facts: [String], answer: String, cited: [Int], removed: [Int], incomplete: String?,
                model: String, endpointHost: String, promptVersion: String, inputTokens: Int, outputTokens: Int, seconds: Double,
                firstTextSeconds: Double?, cost: Double?, createdAt: Date) {
        self.id = id
        self.conversationId = conversationId
        self.question = question
        self.rangeText = rangeText
        self.rangeStart = rangeStart
        self.rangeEnd = rangeEnd
        self.passages = passages
        self.facts = facts
        self.answer = answer
        self.cited = cited
        self.removed = removed
        self.incomplete = incomplete
        self.model = model
        self.endpointHost = endpointHost
        self.promptVersion = promptVersion
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.seconds = seconds
        self.firstTextSeconds = firstTextSeconds
        self.cost = cost
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension JournalStore {
    /// Keeps `turn`: in conversation `turn.conversationId`, or in a new one (its title the
    /// question) when that is 0. Returns it with its ids.
    public func addAskTurn(_ turn: AskTurn) throws -> AskTurn {
        try pool.write { db in
            var row = turn
            if row.conversationId == 0 {
                var conversation = AskConversation(title: String(turn.question.prefix(200)), createdAt: turn.createdAt, updatedAt: turn.createdAt)
                try conversation.insert(db)
                row.conversationId = conversation.id ?? 0
            } else {
                guard var conversation = try AskConversation.fetchOne(db, key: row.conversationId) else {
                    throw StoreError.notFound("no conversation \(row.conversationId) (see `voicejournal ask --list`)")
                }
                conversation.updatedAt = turn.createdAt
                try conversation.update(db)
            }
            try row.insert(db)
            return row
        }
    }

    /// The conversations, the most recent first.
    public func askConversations(limit: Int = 20) throws -> [AskConversation] {
        try pool.read { db in try AskConversation.order(sql: "updatedAt DESC, id DESC").limit(limit).fetchAll(db) }
    }

    /// A conversation and its turns, oldest first; nil id: the latest conversation.
    public func askConversation(id: Int64?) throws -> (AskConversation, [AskTurn])? {
        try pool.read { db in
            let conversation = try id.map { try AskConversation.fetchOne(db, key: $0) }
                ?? AskConversation.order(sql: "updatedAt DESC, id DESC").fetchOne(db)
            guard let conversation, let key = conversation.id else { return nil }
            return (conversation, try AskTurn.filter(sql: "conversationId = ?", arguments: [key]).order(sql: "id").fetchAll(db))
        }
    }
}
