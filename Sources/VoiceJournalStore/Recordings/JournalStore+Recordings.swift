import Foundation
import GRDB

/// What a new recording belongs to.
public enum RecordingOwner: Sendable, Equatable {
    /// A new voice entry in the named journal (created if it does not exist yet), dated
    /// `date` (nil: when the recording begins).
    case entry(journal: String, title: String?, mood: Mood?, theme: Theme?, date: Date? = nil)
    /// The answer to an assignment (no entry of its own).
    case assignment(Int64)
}

/// What finishing a recording left in the store: the complete row and its queued job.
public struct CompletedRecording: Sendable, Equatable {
    public var recording: Recording
    public var job: Job
    /// True when the recording was saved before, under the same idempotency key: nothing new was stored.
    public var isEarlierAnswer = false
}

/// The measured facts about a finished audio file, filled into its recording row.
public struct RecordingFacts: Sendable, Equatable {
    public var sha256: String
    public var durationSeconds: Double
    public var sizeBytes: Int64
    /// The file's modification time, taken before it was hashed (nil: unknown, hashed
    /// again before its upload).
    public var modifiedNanoseconds: Int64?
    public var peakDBFS: Double?
    public var rmsDBFS: Double?

    public init(sha256: String, durationSeconds: Double, sizeBytes: Int64, modifiedNanoseconds: Int64? = nil,
                peakDBFS: Double?, rmsDBFS: Double?) {
        self.sha256 = sha256
        self.durationSeconds = durationSeconds
        self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds
        self.peakDBFS = peakDBFS
        self.rmsDBFS = rmsDBFS
    }
}

extension JournalStore {
    /// Checks, before any audio is captured, that the owner can take a recording: the
    /// assignment exists and is not answered yet, or the journal exists (the default one is
    /// made on first use). Throws a `StoreError` worded for the user.
    public func checkOwner(_ owner: RecordingOwner) throws {
        switch owner {
        case .assignment(let id):
            try pool.read { db in _ = try Self.openAssignment(db, id: id) }
        case .entry(let journal, _, _, _, _):
            guard journal.caseInsensitiveCompare(Journal.defaultName) != .orderedSame else { return }
            _ = try self.journal(named: journal)
        }
    }

    /// Writes the rows for a recording that is starting (state `recording`, and its voice entry
    /// when it has one) and, inside the same transaction, lets `createFile` create the audio
    /// file for the new id. No other process sees the row before its file exists.
    public func beginRecording<File>(
        owner: RecordingOwner, format: String, sampleRate: Int, channels: Int, idempotencyKey: String? = nil,
        now: Date = Date(), createFile: (_ recordingId: Int64) throws -> (path: String, file: File)
    ) throws -> (recording: Recording, file: File) {
        try pool.write { db in
            var entryId: Int64?
            var assignmentId: Int64?
            switch owner {
            case let .entry(journal, title, mood, theme, date):
                guard let journalId = try Self.journalForNewEntry(db, named: journal, now: now).id else {
                    throw StoreError.inconsistent("the journal row has no id")
                }
                var entry = Entry(journalId: journalId, kind: .voice,
                                  title: title, content: "", mood: mood, theme: theme, createdAt: date ?? now)
                try entry.insert(db)
                entryId = entry.id
            case .assignment(let id):
                assignmentId = try Self.openAssignment(db, id: id).id
            }
            var recording = Recording(path: "", sampleRate: sampleRate, channels: channels, format: format,
                                      state: .recording, entryId: entryId, assignmentId: assignmentId,
                                      idempotencyKey: idempotencyKey, createdAt: now)
            try recording.insert(db)
            guard let id = recording.id else { throw StoreError.inconsistent("the recording row got no id") }
            let created = try createFile(id)
            recording.path = created.path
            try recording.update(db)
            return (recording, created.file)
        }
    }

    /// Fills in a finished recording's facts, marks it complete, queues its transcription at
    /// live priority and, for an answer, marks the assignment answered — all in one transaction.
    /// Returns nil if the row was no longer `recording` (another process completed it first).
    public func completeRecording(id: Int64, facts: RecordingFacts, now: Date = Date()) throws -> CompletedRecording? {
        do {
            return try pool.write { db in
                guard var recording = try Recording.fetchOne(db, key: id), recording.state == .recording else { return nil }
                recording.sha256 = facts.sha256
                recording.durationSeconds = facts.durationSeconds
                recording.sizeBytes = facts.sizeBytes
                recording.modifiedNanoseconds = facts.modifiedNanoseconds
                recording.peakDBFS = facts.peakDBFS
                recording.rmsDBFS = facts.rmsDBFS
                recording.state = .complete
                try recording.update(db)
                return try Self.finishAnswer(db, recording: recording, now: now)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw try duplicateAudio(sha256: facts.sha256) ?? error
        }
    }

    /// Adds an existing, finished audio file as the answer to an assignment (`answer --file`).
    /// Inside the transaction `placeFile` puts the audio where it belongs for the new id and
    /// returns its path; the job is queued and the assignment marked answered with it.
    /// With an `idempotencyKey` already stored for this assignment's answer, nothing is
    /// stored or copied: the earlier recording comes back (`isEarlierAnswer`).
    public func addAnswer(assignmentId: Int64, format: String, sampleRate: Int, channels: Int,
                          facts: RecordingFacts, idempotencyKey: String? = nil, now: Date = Date(),
                          placeFile: (_ recordingId: Int64) throws -> String) throws -> CompletedRecording {
        if let earlier = try earlierAnswer(assignmentId: assignmentId, idempotencyKey: idempotencyKey) { return earlier }
        if let duplicate = try duplicateAudio(sha256: facts.sha256) { throw duplicate }
        return try pool.write { db in
            // Checked again inside the write: a second submission racing this one finds the first.
            if let earlier = try Self.earlierAnswer(db, assignmentId: assignmentId, idempotencyKey: idempotencyKey) { return earlier }
            let assignment = try Self.openAssignment(db, id: assignmentId)
            var recording = Recording(path: "", sha256: facts.sha256, durationSeconds: facts.durationSeconds,
                                      sampleRate: sampleRate, channels: channels, format: format, sizeBytes: facts.sizeBytes,
                                      peakDBFS: facts.peakDBFS, rmsDBFS: facts.rmsDBFS, state: .complete,
                                      assignmentId: assignment.id, idempotencyKey: idempotencyKey, createdAt: now)
            try recording.insert(db)
            guard let id = recording.id else { throw StoreError.inconsistent("the recording row got no id") }
            // No file stamp: the hash is of the source, not of the copy placed here, so the
            // copy is hashed again before its upload (and re-keyed if the source changed meanwhile).
            recording.path = try placeFile(id)
            try recording.update(db)
            return try Self.finishAnswer(db, recording: recording, now: now)
        }
    }

    /// The answer to the assignment stored before under `idempotencyKey`, with its job; nil
    /// when the key is new (or nil). A key used for another recording is a conflict.
    public func earlierAnswer(assignmentId: Int64, idempotencyKey: String?) throws -> CompletedRecording? {
        guard idempotencyKey != nil else { return nil }
        // A write: an earlier answer whose job is gone gets it queued again.
        return try pool.write { db in try Self.earlierAnswer(db, assignmentId: assignmentId, idempotencyKey: idempotencyKey) }
    }

    static func earlierAnswer(_ db: Database, assignmentId: Int64, idempotencyKey: String?) throws -> CompletedRecording? {
        guard let idempotencyKey,
              let recording = try Recording.filter(Column("idempotencyKey") == idempotencyKey).fetchOne(db),
              let id = recording.id else { return nil }
        guard recording.assignmentId == assignmentId else {
            throw StoreError.conflict("the idempotency key \"\(idempotencyKey)\" was used for recording \(id), "
                + (recording.assignmentId.map { "the answer to assignment \($0)" } ?? "which answers no assignment")
                + "; give each answer its own key")
        }
        let job = try JobQueue.enqueueTranscription(db, recordingId: id, priority: Job.livePriority)
        return CompletedRecording(recording: recording, job: job, isEarlierAnswer: true)
    }

    /// Rows still in state `recording`, oldest first: live takes, or ones whose recorder died.
    public func unfinishedRecordings() throws -> [Recording] {
        try pool.read { db in
            try Recording.filter(Recording.Columns.state == RecordingState.recording).order(Recording.Columns.id).fetchAll(db)
        }
    }

    /// Forgets a recording that holds no audio, with the empty voice entry made for it.
    public func discardRecording(id: Int64) throws {
        try pool.write { db in
            guard let recording = try Recording.fetchOne(db, key: id) else { return }
            try recording.delete(db)
            if let entryId = recording.entryId {
                try db.execute(sql: "DELETE FROM entry WHERE id = ? AND kind = ? AND content = ''",
                               arguments: [entryId, EntryKind.voice])
            }
        }
    }

    /// The error for audio already in the store, or nil when the content is new.
    public func duplicateAudio(sha256: String) throws -> StoreError? {
        let existing = try pool.read { db in
            try Recording.filter(Recording.Columns.sha256 == sha256).fetchOne(db)
        }
        guard let existing else { return nil }
        return StoreError(.alreadyStored, "this audio is already in the journal as recording \(try existing.storedId()) (\(existing.path))")
    }

    /// Queues the transcription and, for an answer, marks its assignment answered.
    private static func finishAnswer(_ db: Database, recording: Recording, now: Date) throws -> CompletedRecording {
        guard let id = recording.id else { throw StoreError.inconsistent("the recording row got no id") }
        let job = try JobQueue.enqueueTranscription(db, recordingId: id, priority: Job.livePriority, now: now)
        if let assignmentId = recording.assignmentId {
            try db.execute(sql: "UPDATE assignment SET status = ?, answeredAt = ? WHERE id = ?",
                           arguments: [AssignmentStatus.answered, now, assignmentId])
        }
        return CompletedRecording(recording: recording, job: job)
    }

    /// The assignment, if it exists and still waits for its answer.
    private static func openAssignment(_ db: Database, id: Int64) throws -> Assignment {
        guard let assignment = try Assignment.fetchOne(db, key: id) else {
            throw StoreError.notFound("there is no assignment \(id); see `voicejournal assignment list`")
        }
        guard assignment.status != .answered else {
            throw StoreError.conflict("assignment \(id) is already answered")
        }
        return assignment
    }
}
