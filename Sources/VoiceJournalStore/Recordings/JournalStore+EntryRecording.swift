import Foundation
import GRDB

/// The recording behind a voice entry or an answer, as `entry show` presents it: the row
/// (path, duration, levels), its transcript with timed segments, and the assignment and
/// question it answers, if any.
public struct RecordingDetails: Codable, Sendable, Equatable {
    public var recording: Recording
    public var transcript: Transcript?
    /// The assignment this recording answers (with its question and person), if any.
    public var answers: AssignmentSummary?
}

extension JournalStore {
    /// The entry's latest recording with its transcript; nil for a typed entry.
    public func recordingDetails(ofEntry id: Int64) throws -> RecordingDetails? {
        try pool.read { db in
            _ = try Self.existingEntry(db, id: id)
            guard let recording = try Recording.fetchOne(db, sql: """
                SELECT * FROM recording WHERE id = (SELECT max(id) FROM recording WHERE entryId = ?)
                """, arguments: [id]) else { return nil }
            return try Self.details(db, of: recording)
        }
    }

    /// The recording that answers an assignment, with its transcript; nil before it is answered.
    public func recordingDetails(ofAssignment id: Int64) throws -> RecordingDetails? {
        try pool.read { db in
            guard try Assignment.fetchOne(db, key: id) != nil else {
                throw StoreError.notFound("there is no assignment \(id); see `voicejournal assignment list`")
            }
            guard let recording = try Recording.fetchOne(db, sql: """
                SELECT * FROM recording WHERE id = (SELECT max(id) FROM recording WHERE assignmentId = ?)
                """, arguments: [id]) else { return nil }
            return try Self.details(db, of: recording)
        }
    }

    /// One assignment with its question, person and (once answered) transcript.
    public func assignment(id: Int64) throws -> AssignmentSummary {
        guard let assignment = try assignmentIfPresent(id: id) else {
            throw StoreError.notFound("there is no assignment \(id); see `voicejournal assignment list`")
        }
        return assignment
    }

    /// The assignment with this id, or nil when the journal has none (deleted, or never made).
    public func assignmentIfPresent(id: Int64) throws -> AssignmentSummary? {
        try pool.read { db in try Self.assignmentSummaries(db, where: "a.id = ?", [id]).first }
    }

    private static func details(_ db: Database, of recording: Recording) throws -> RecordingDetails {
        let transcript = try Transcript.filter(Transcript.Columns.recordingId == recording.id).fetchOne(db)
        let answers = try recording.assignmentId.flatMap { try assignmentSummaries(db, where: "a.id = ?", [$0]).first }
        return RecordingDetails(recording: recording, transcript: transcript, answers: answers)
    }
}
