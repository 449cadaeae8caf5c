import Foundation
import GRDB

/// One email to send — an assignment's link, a reminder, word that an answer landed — as a
/// job of the delivery queue: claimed by one sender at a time through a lease, retried with
/// backoff after a transient failure, and sent at most once unless the user asks again.
public struct Delivery: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "delivery"

    /// What the message is.
    public enum Kind: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        /// An assignment's question and link, to the person who answers it.
        case send
        /// A reminder of an unanswered assignment.
        case remind
        /// Word to the journal's owner that an answer (or its transcript) landed.
        case notify
        /// `mail test`'s message.
        case test
    }

    /// Where the delivery stands.
    public enum State: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case queued
        /// Claimed by a sender now.
        case sending
        /// The server took it (its reply in `reply`).
        case sent
        /// Refused for good (a 5xx reply), or out of tries.
        case failed
        /// The connection broke after the message began: the server may have it. Never sent
        /// again by itself; `assignment send --again` is the user's call.
        case unknown
        case cancelled
    }

    public var id: Int64?
    public var assignmentId: Int64?
    public var kind: Kind
    /// The address it goes to.
    public var recipient: String
    public var subject: String
    /// The whole message as sent (headers and body, CRLF lines, ASCII), composed once.
    public var message: String
    public var messageId: String
    public var state: State
    public var attempts: Int
    public var maxAttempts: Int
    /// Not claimed before this moment (backoff after a transient failure).
    public var runAfter: Date
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    /// When the server accepted DATA (the message began); nil if it never did.
    public var dataStartedAt: Date?
    /// The server's last reply code and text, or what went wrong before a reply.
    public var replyCode: Int?
    public var reply: String?
    public var sentAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    /// Tries before a delivery that keeps failing for a reason that may pass fails for good.
    public static let defaultMaxAttempts = 5

    public init(assignmentId: Int64?, kind: Kind, recipient: String, subject: String, message: String, messageId: String,
                maxAttempts: Int = Delivery.defaultMaxAttempts, now: Date = Date()) {
        self.assignmentId = assignmentId
        self.kind = kind
        self.recipient = recipient
        self.subject = subject
        self.message = message
        self.messageId = messageId
        state = .queued
        attempts = 0
        self.maxAttempts = maxAttempts
        runAfter = now
        createdAt = now
        updatedAt = now
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// What `--json` shows of a delivery: not the message itself.
    public struct Summary: Codable, Sendable, Equatable {
        public var id: Int64
        public var kind: Kind
        public var recipient: String
        public var state: State
        public var attempts: Int
        public var replyCode: Int?
        public var reply: String?
        public var createdAt: Date
        public var sentAt: Date?
        public var nextTry: Date?
    }

    public var summary: Summary {
        Summary(id: id ?? 0, kind: kind, recipient: recipient, state: state, attempts: attempts, replyCode: replyCode, reply: reply,
                createdAt: createdAt, sentAt: sentAt, nextTry: state == .queued ? runAfter : nil)
    }
}

/// How one try at a delivery ended, as the sender tells the queue.
public enum DeliveryAttempt: Sendable, Equatable {
    /// The server took the message.
    case sent(code: Int, reply: String)
    /// Refused for good (5xx): not tried again.
    case refused(code: Int?, reply: String)
    /// Not sent, for a reason that may pass (4xx, the network, no answer before DATA):
    /// tried again at `retryAt` while tries remain.
    case deferred(code: Int?, reply: String, retryAt: Date)
    /// The message began and the connection broke: the server may have it.
    case unknown(reply: String)
    /// Not tried (the mail settings are wrong, or the run was stopped): queued again as it was.
    case released(note: String)
}
