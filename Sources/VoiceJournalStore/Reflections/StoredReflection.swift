import Foundation
import GRDB

/// A reflection as the journal keeps it: valid (its checked fields as JSON) or failed (its
/// reasons), with the model, where it was asked, the prompt's version and what it cost.
public struct StoredReflection: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "reflection"

    /// What a reflection is about.
    public enum PeriodKind: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case entry, week, month
    }

    /// Whether it passed the checks.
    public enum Status: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case valid, failed
    }

    public var id: Int64?
    public var entryId: Int64?
    public var periodKind: PeriodKind
    public var periodStart: Date?
    public var periodEnd: Date?
    public var status: Status
    /// Why it failed; empty when valid. JSON text.
    public var reasons: [String]
    /// The checked fields, as JSON text; nil when an entry's failed. A week's or a month's
    /// also holds its numbers and the journal it covered, failed or not.
    public var fields: String?
    public var model: String
    public var endpointHost: String
    public var promptVersion: String
    /// Requests made: 1, or 2 with a repair; more for an entry reflected in parts.
    public var requests: Int
    public var inputTokens: Int
    public var outputTokens: Int
    public var seconds: Double
    /// Dollars; nil when the endpoint's prices are not known.
    public var cost: Double?
    public var createdAt: Date

    public init(id: Int64? = nil, entryId: Int64?, periodKind: PeriodKind, periodStart: Date? = nil, periodEnd: Date? = nil,
                status: Status, reasons: [String], fields: String?, model: String, endpointHost: String, promptVersion: String,
                requests: Int, inputTokens: Int, outputTokens: Int, seconds: Double, cost: Double?, createdAt: Date) {
        self.id = id
        self.entryId = entryId
        self.periodKind = periodKind
        self.periodStart = periodStart
        self.periodEnd = periodEnd
        self.status = status
        self.reasons = reasons
        self.fields = fields
        self.model = model
        self.endpointHost = endpointHost
        self.promptVersion = promptVersion
        self.requests = requests
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.seconds = seconds
        self.cost = cost
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
