import Foundation

/// One entry with everything `entry show` tells of it.
public struct EntryView: Sendable, Equatable {
    public var entry: EntryDetails
    /// The recording behind a voice entry, with its transcript; nil for a typed entry.
    public var recording: RecordingDetails?
    /// What the entry said before it was first corrected; nil if it never was.
    public var original: EntryOriginal?
}

/// A journal as `journal show` presents it, in the shape of its `--json` document.
public struct JournalOverview: Encodable, Sendable, Equatable {
    public var journal: Journal
    /// The person the journal is kept for, if any.
    public var dedicatedTo: Person?
    /// Its questions in order, each with where it stands.
    public var questions: [TimelineQuestion]
    /// Its latest entries, newest first.
    public var entries: [EntryDetails]
}

/// One assignment with the recording that answers it, as `assignment show` presents it.
public struct AssignmentView: Sendable, Equatable {
    public var assignment: AssignmentSummary
    /// The answer's recording with its transcript; nil before it is answered.
    public var recording: RecordingDetails?
}

extension JournalStore {
    /// The entry, its recording and its original text (`entry show`).
    public func entryView(id: Int64) throws -> EntryView {
        EntryView(entry: try entry(id: id), recording: try recordingDetails(ofEntry: id), original: try original(ofEntry: id))
    }

    /// The journal with the person it is kept for, its questions' timeline and its latest
    /// `limit` entries (`journal show`).
    public func journalOverview(named name: String, limit: Int) throws -> JournalOverview {
        let journal = try journal(named: name)
        return JournalOverview(journal: journal, dedicatedTo: try dedicatedPerson(of: journal),
                               questions: try timeline(journal: journal.name),
                               entries: try entries(EntryFilter(journal: journal.name, limit: limit)))
    }

    /// The assignment and its answer's recording (`assignment show`).
    public func assignmentView(id: Int64) throws -> AssignmentView {
        AssignmentView(assignment: try assignment(id: id), recording: try recordingDetails(ofAssignment: id))
    }
}
