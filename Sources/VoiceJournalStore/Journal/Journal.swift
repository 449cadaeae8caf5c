import Foundation
import GRDB

/// A named journal: entries and questions belong to one.
public struct Journal: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "journal"
    public var id: Int64?
    public var name: String
    public var description: String?
    /// A journal kept for someone (e.g. questions for a grandparent), if any.
    public var dedicatedToPersonId: Int64?
    public var createdAt: Date
    /// The language its recordings are spoken in (ISO-639-1), sent with each upload; nil
    /// lets the model detect it.
    public var language: String?
    /// Whether its recordings are translated to English as well.
    public var translate: Bool

    public init(id: Int64? = nil, name: String, description: String? = nil, dedicatedToPersonId: Int64? = nil, createdAt: Date = Date(),
                language: String? = nil, translate: Bool = false) {
        self.id = id
        self.name = name
        self.description = description
        self.dedicatedToPersonId = dedicatedToPersonId
        self.createdAt = createdAt
        self.language = language
        self.translate = translate
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The journal `entry add` and `record` use when none is named.
    public static let defaultName = "Personal"
}

/// Someone questions are assigned to. A person with relationship `self` ("Myself") always exists.
public struct Person: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "person"
    public var id: Int64?
    public var name: String
    public var relationship: String
    public var email: String?
    public var createdAt: Date
    /// The language they answer in (ISO-639-1), sent with each upload of their answers
    /// (before the journal's); nil: the journal's, else detected.
    public var language: String?
    /// Whether their answers are translated to English as well.
    public var translate: Bool

    public init(id: Int64? = nil, name: String, relationship: String, email: String? = nil, createdAt: Date = Date(),
                language: String? = nil, translate: Bool = false) {
        self.id = id
        self.name = name
        self.relationship = relationship
        self.email = email
        self.createdAt = createdAt
        self.language = language
        self.translate = translate
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The relationship that marks the user themself.
    public static let selfRelationship = "self"
}

/// A question in a journal, to be answered by a person through an assignment.
public struct Question: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "question"
    public var id: Int64?
    public var journalId: Int64
    public var text: String
    public var displayOrder: Int
    public var createdAt: Date

    public init(id: Int64? = nil, journalId: Int64, text: String, displayOrder: Int, createdAt: Date = Date()) {
        self.id = id
        self.journalId = journalId
        self.text = text
        self.displayOrder = displayOrder
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A question given to a person, answered with a recording.
public struct Assignment: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "assignment"
    public var id: Int64?
    public var questionId: Int64
    public var personId: Int64
    public var status: AssignmentStatus
    /// An unguessable token for a link that lets the person answer.
    public var linkToken: String
    public var sentAt: Date?
    public var answeredAt: Date?
    public var createdAt: Date
    /// Reminders sent (or whose outcome is unknown: they may have arrived), and the last one's time.
    public var reminderCount: Int = 0
    public var lastReminderAt: Date?

    public init(id: Int64? = nil, questionId: Int64, personId: Int64, status: AssignmentStatus = .pending,
                linkToken: String, sentAt: Date? = nil, answeredAt: Date? = nil, createdAt: Date = Date()) {
        self.id = id
        self.questionId = questionId
        self.personId = personId
        self.status = status
        self.linkToken = linkToken
        self.sentAt = sentAt
        self.answeredAt = answeredAt
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

// Every key is written, `null` when unset, so a reader of `--json` finds the same keys on
// every journal and person (synthesized encoding would leave an unset one out). Decoding is
// synthesized: a row holds every column.

extension Journal {
    private enum CodingKeys: String, CodingKey {
        case id, name, description, dedicatedToPersonId, createdAt, language, translate
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(dedicatedToPersonId, forKey: .dedicatedToPersonId)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(language, forKey: .language)
        try container.encode(translate, forKey: .translate)
    }
}

extension Person {
    private enum CodingKeys: String, CodingKey {
        case id, name, relationship, email, createdAt, language, translate
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(relationship, forKey: .relationship)
        try container.encode(email, forKey: .email)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(language, forKey: .language)
        try container.encode(translate, forKey: .translate)
    }
}
