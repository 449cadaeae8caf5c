import Foundation
import GRDB

/// One journal entry: typed text, or a voice recording whose transcript fills it in.
public struct Entry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "entry"
    public var id: Int64?
    public var journalId: Int64
    public var kind: EntryKind
    public var title: String?
    /// Typed text; empty for a voice entry (its words live in the transcript).
    public var content: String
    public var mood: Mood?
    public var theme: Theme?
    public var createdAt: Date

    public init(id: Int64? = nil, journalId: Int64, kind: EntryKind, title: String? = nil, content: String,
                mood: Mood? = nil, theme: Theme? = nil, createdAt: Date = Date()) {
        self.id = id
        self.journalId = journalId
        self.kind = kind
        self.title = title
        self.content = content
        self.mood = mood
        self.theme = theme
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
