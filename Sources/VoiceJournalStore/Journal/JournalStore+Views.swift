import Foundation

/// One entry with everything `entry show` tells of it.
package struct EntryView: Sendable, Equatable {
    package var entry: EntryDetails
    /// The recording behind a voice entry, with its transcript; nil for a typed entry.
    package var recording: RecordingDetails?
    /// What the entry said before it was first corrected; nil if it never was.
    package var original: EntryOriginal?
    /// The entry's latest reflection, valid or failed; nil when it has none.
    package var reflection: StoredReflection?
}

/// A journal as `journal show` presents it, in the shape of its `--json` document.
package struct JournalOverview: Encodable, Sendable, Equatable {
    package var journal: Journal
    /// The person the journal is kept for, if any.
    package var dedicatedTo: Person?
    /// Its questions in order, each with where it stands.
    package var questions: [TimelineQuestion]
    /// Its latest entries, newest first.
    package var entries: [EntryDetails]
}

/// One assignment with the recording that answers it, as `assignment show` presents it.
package struct AssignmentView: Sendable, Equatable {
    package var assignment: AssignmentSummary
    /// The answer's recording with its transcript; nil before it is answered.
    package var recording: RecordingDetails?
    /// The emails sent for it (its link, reminders), oldest first.
    package var deliveries: [Delivery.Summary] = []
}

extension JournalStore {
    /// The entry, its recording and its original text (`entry show`).
    package func entryView(id: Int64) throws -> EntryView {
        EntryView(entry: try entry(id: id), recording: try recordingDetails(ofEntry: id), original: try original(ofEntry: id),
                  reflection: try latestReflection(entryId: id))
    }

    /// The journal with the person it is kept for, its questions' timeline and its latest
    /// `limit` entries (`journal show`).
    package func journalOverview(named name: String, limit: Int) throws -> JournalOverview {
        let journal = try journal(named: name)
        return JournalOverview(journal: journal, dedicatedTo: try dedicatedPerson(of: journal),
                               questions: try timeline(journal: journal.name),
                               entries: try entries(EntryFilter(journal: journal.name, limit: limit)))
    }

    /// The assignment and its answer's recording (`assignment show`).
    package func assignmentView(id: Int64) throws -> AssignmentView {
        AssignmentView(assignment: try assignment(id: id), recording: try recordingDetails(ofAssignment: id),
                       deliveries: try deliveries(assignmentId: id).map(\.summary))
    }
}
