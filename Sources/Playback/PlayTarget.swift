import Foundation
import Store

// TEMPORARY (the lead's stand-in until helper "where" lands the real one).
public struct PlayTarget: Sendable, Equatable {
    public var url: URL
    public var title: String
    public var segments: [Transcript.Segment] = []
    public var entryId: Int64?
    public var recordingId: Int64?
    public var assignmentId: Int64?
    public var startSeconds: Double?
    public var isBeingRecorded = false

    public static func entry(_ id: Int64, in store: JournalStore) throws -> PlayTarget { throw StoreError.notFound("not yet") }
    public static func recording(_ id: Int64, in store: JournalStore) throws -> PlayTarget { throw StoreError.notFound("not yet") }
    public static func assignment(_ id: Int64, in store: JournalStore) throws -> PlayTarget { throw StoreError.notFound("not yet") }
    public static func search(_ query: String, in store: JournalStore) throws -> PlayTarget { throw StoreError.notFound("not yet") }

    public static func file(_ path: String) throws -> PlayTarget {
        PlayTarget(url: URL(fileURLWithPath: path), title: URL(fileURLWithPath: path).lastPathComponent)
    }
}
