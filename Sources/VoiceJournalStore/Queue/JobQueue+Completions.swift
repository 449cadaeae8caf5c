import Foundation
import GRDB
import VoiceJournalLanguages

/// Where one file of a batch landed in the store.
public struct BatchFileOutcome: Sendable, Equatable {
    public var recordingId: Int64
    public var jobId: Int64
    /// The job's state after queueing (`done` when the same audio was transcribed before).
    public var jobState: JobState
    /// False when the same content was already known (under this or another path).
    public var isNewRecording: Bool
    /// The voice entry made for `--journal`, if any.
    public var entryId: Int64?
}

extension JobQueue {
    /// Records files found by `transcribe` and queues them, in one transaction. Idempotent
    /// on content: a file whose sha256 is known maps to the recording already there (its
    /// path is not changed), so the same audio is uploaded and stored once. A failed or
    /// cancelled job for it is queued again, since the user asked for the file again. With
    /// `journalName` (an existing journal; the default one is made on first use, as for
    /// `entry add`), each recording without an entry gets a voice entry, dated when its audio
    /// was recorded: `recordedAt`, one date per file (nil: now); with `reflect`, each entry made
    /// gets a reflection job too (due once its transcript lands).
    public func addBatchFiles(_ files: [Recording], journalName: String? = nil, recordedAt: [Date]? = nil,
                              priority: Int = Job.batchPriority, maxAttempts: Int = 6, reflect: Bool = false,
                              now: Date = Date()) throws -> [BatchFileOutcome] {
        precondition(recordedAt == nil || recordedAt?.count == files.count, "one recording date per file")
        return try immediateWrite { db in
            let journalId = try journalName.map { try JournalStore.journalForNewEntry(db, named: $0, now: now).id }
            return try files.enumerated().map { index, file in
                guard let sha = file.sha256 else { throw StoreError.inconsistent("\(file.path) has no content digest") }
                var recording: Recording
                let isNew: Bool
                if let existing = try Recording.fetchOne(db.cachedStatement(sql: "SELECT * FROM recording WHERE sha256 = ?"),
                                                         arguments: [sha]) {
                    recording = existing
                    isNew = false
                } else {
                    recording = file
                    recording.state = .complete
                    recording.createdAt = now
                    try recording.insert(db)
                    isNew = true
                }
                guard let recordingId = recording.id else { throw StoreError.inconsistent("recording \(file.path) has no id") }
                if let journalId = journalId ?? nil, recording.entryId == nil, recording.assignmentId == nil {
                    var entry = Entry(journalId: journalId, kind: .voice, title: URL(fileURLWithPath: file.path).lastPathComponent,
                                      content: "", createdAt: recordedAt?[index] ?? now)
                    try entry.insert(db)
                    recording.entryId = entry.id
                    try recording.update(db)
                    if reflect, let entryId = entry.id {
                        var reflection = ReflectionJob(entryId: entryId, now: now)
                        try reflection.insert(db)
                    }
                }
                var job = try Self.enqueueTranscription(db, recordingId: recordingId, priority: priority,
                                                        maxAttempts: maxAttempts, now: now)
                let transcribed = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM transcript WHERE recordingId = ?)"),
                                                    arguments: [recordingId]) ?? false
                if transcribed, job.state != .done {
                    job.state = .done
                    job.updatedAt = now
                    try job.update(db)
                } else if !transcribed, job.state == .failed || job.state == .cancelled {
                    job.state = .queued
                    job.attempts = 0
                    job.runAfter = now
                    job.lastError = nil
                    job.updatedAt = now
                    try job.update(db)
                }
                guard let jobId = job.id else { throw StoreError.inconsistent("job for \(file.path) has no id") }
                return BatchFileOutcome(recordingId: recordingId, jobId: jobId, jobState: job.state,
                                        isNewRecording: isNew, entryId: recording.entryId)
            }
        }
    }

    /// Stores the transcript and marks its job done, in the same transaction, but only if
    /// `owner` still holds the job's lease (else another worker took it over, or it was
    /// cancelled, and this result is dropped). The search index follows by trigger.
    /// Returns whether the result was kept.
    @discardableResult
    public func completeJob(id: Int64, owner: String, transcript: Transcript, now: Date = Date()) throws -> Bool {
        try immediateWrite { db in try Self.complete(db, id: id, owner: owner, transcript: transcript, now: now) }
    }

    /// A finished upload's result for `completeJobsAndClaim`.
    public struct Completion: Sendable {
        public var jobId: Int64
        public var transcript: Transcript
        public init(jobId: Int64, transcript: Transcript) {
            self.jobId = jobId
            self.transcript = transcript
        }
    }

    /// Jobs to claim ahead for one server of a run: `count` of them, claimed for `endpoint`,
    /// each only while at least `whileAtLeast` jobs are queued and due (see `claimNextJob`).
    public struct Claim: Sendable, Equatable {
        public var endpoint: String?
        public var count: Int
        public var whileAtLeast: Int
        public init(endpoint: String?, count: Int, whileAtLeast: Int = 0) {
            self.endpoint = endpoint
            self.count = count
            self.whileAtLeast = whileAtLeast
        }
    }

    /// A job claimed ahead, with its recording (nil if that was deleted) and the vocabulary
    /// of its journal, read with the claim so the worker that uploads it reads nothing.
    public typealias ClaimedJob = (job: Job, recording: Recording?, vocabulary: [String])

    /// Stores each transcript like `completeJob` and then makes each of `claims` like
    /// `claimNextJob`, all in one transaction: a run going through a batch of short files
    /// commits once for several files instead of twice for each. `kept` says, per completion,
    /// whether its result was kept; `claimed` holds, per claim in order, the jobs it got,
    /// each with its recording and vocabulary read in the same transaction.
    package func completeJobsAndClaim(_ completions: [Completion], owner: String, claims: [Claim], lease: TimeInterval,
                                     scope: JobScope?, now: Date = Date()) throws -> (kept: [Bool], claimed: [[ClaimedJob]]) {
        try immediateWrite { db in
            let kept = try completions.map { try Self.complete(db, id: $0.jobId, owner: owner, transcript: $0.transcript, now: now) }
            var claimed: [[ClaimedJob]] = []
            var exhausted = false
            for claim in claims {
                var jobs: [ClaimedJob] = []
                while !exhausted && jobs.count < claim.count {
                    guard try Self.dueJobsLeft(db, atLeast: claim.whileAtLeast, now: now) else { break }
                    guard let next = try Self.claimNext(db, owner: owner, lease: lease, scope: scope,
                                                        endpoint: claim.endpoint, now: now) else {
                        exhausted = true // nothing due for this claim is due for the next either
                        break
                    }
                    jobs.append((next, try JournalStore.recording(db, id: next.recordingId),
                                 try JournalStore.vocabulary(db, forRecording: next.recordingId)))
                }
                claimed.append(jobs)
            }
            return (kept, claimed)
        }
    }

    /// The completion, inside a caller's transaction. Raw statements, prepared once per
    /// connection: this runs once per file, and a batch of short files against a fast server
    /// spends its time here rather than waiting.
    private static func complete(_ db: Database, id: Int64, owner: String, transcript: Transcript, now: Date) throws -> Bool {
        let done = try db.cachedStatement(sql: """
            UPDATE job SET state = 'done', leaseOwner = NULL, leaseExpiresAt = NULL, lastError = NULL, updatedAt = ?
            WHERE id = ? AND state = 'running' AND leaseOwner = ?
            RETURNING recordingId
            """)
        guard let recordingId = try Int64.fetchOne(done, arguments: [now, id, owner]) else { return false }
        try storeTranscript(db, recordingId: recordingId, transcript, now: now)
        return true
    }

    /// Stores a recording's transcript: one per recording (recordingId is unique). A job
    /// done again (`retryJobs(ids:done:)`) replaces the transcript it had, row and search
    /// entry kept, correction dropped: the old text stood until this moment. The language
    /// is stored as its code (a chunk answered before answers were kept as codes may say
    /// "german").
    static func storeTranscript(_ db: Database, recordingId: Int64, _ transcript: Transcript, now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO transcript (recordingId, text, language, model, segments, createdAt,
                                    unheard, leftOut, audioSentSeconds, resends,
                                    translation, translationSegments, translationNote)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (recordingId) DO UPDATE SET text = excluded.text, language = excluded.language,
                model = excluded.model, segments = excluded.segments, createdAt = excluded.createdAt,
                unheard = excluded.unheard, leftOut = excluded.leftOut,
                audioSentSeconds = excluded.audioSentSeconds, resends = excluded.resends,
                translation = excluded.translation, translationSegments = excluded.translationSegments,
                translationNote = excluded.translationNote,
                originalText = NULL, originalSegments = NULL, correctedAt = NULL
            """).execute(arguments: [recordingId, transcript.text, SpokenLanguage.code(for: transcript.language), transcript.model,
                                     Transcript.Segment.json(transcript.segments), now,
                                     Transcript.jsonText(transcript.unheard), Transcript.jsonText(transcript.leftOut),
                                     transcript.audioSentSeconds, transcript.resends,
                                     transcript.translation, Transcript.Segment.json(transcript.translationSegments),
                                     transcript.translationNote])
    }
}
