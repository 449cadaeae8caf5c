import Foundation
import GRDB

/// What the server heard in one chunk, stored with its child job until the recording's
/// transcript is assembled. Timestamps are relative to the chunk.
package struct ChunkResult: Codable, Sendable, Equatable {
    package var text: String
    package var language: String?
    package var model: String
    package var segments: [Transcript.Segment]
    /// Speech in the chunk that no words came back for (recording's clock, like `segments`).
    package var unheard: [Transcript.Gap]?
    /// What the server answered that the transcript leaves out, and why.
    package var leftOut: [Transcript.LeftOut]?
    /// Seconds of audio uploaded for the chunk, re-sends included.
    package var audioSentSeconds: Double?
    /// Extra uploads made for the chunk's coverage.
    package var resends: Int?
    /// The chunk's English translation, when one was asked and came back.
    package var translation: String?
    /// Its timed segments, relative to the chunk like `segments`.
    package var translationSegments: [Transcript.Segment]?
    /// Why a translation that was asked for is missing.
    package var translationNote: String?

    package init(text: String, language: String?, model: String, segments: [Transcript.Segment],
                unheard: [Transcript.Gap]? = nil, leftOut: [Transcript.LeftOut]? = nil,
                audioSentSeconds: Double? = nil, resends: Int? = nil,
                translation: String? = nil, translationSegments: [Transcript.Segment]? = nil, translationNote: String? = nil) {
        self.translation = translation
        self.translationSegments = translationSegments
        self.translationNote = translationNote
        self.text = text
        self.language = language
        self.model = model
        self.segments = segments
        self.unheard = unheard
        self.leftOut = leftOut
        self.audioSentSeconds = audioSentSeconds
        self.resends = resends
    }
}

/// One planned chunk of a recording, before it is queued.
package struct PlannedChunk: Sendable, Equatable {
    /// Where it starts on the recording's original timeline.
    package var startSeconds: Double
    /// Its encoded file (under `<home>/tmp/`).
    package var path: String
    /// Where it ends on the recording's timeline (nil: not recorded, as for older plans).
    package var endSeconds: Double?
    /// The cut before it went through speech (`AudioChunk.startsInSpeech`).
    package var startsInSpeech: Bool
    /// What its upload holds and where its speech is, as JSON (the transcription module's
    /// `TimeMap`, kept here as data); nil: the stretch whole, speech not measured.
    package var timeMap: String?

    package init(startSeconds: Double, path: String, endSeconds: Double? = nil, startsInSpeech: Bool = false,
                timeMap: String? = nil) {
        self.startSeconds = startSeconds
        self.path = path
        self.endSeconds = endSeconds
        self.startsInSpeech = startsInSpeech
        self.timeMap = timeMap
    }
}

/// A chunk's child job as stored.
package struct JobChunk: Sendable, Equatable {
    package var jobId: Int64
    package var parentJobId: Int64
    /// 0-based position in the recording.
    package var index: Int
    package var startSeconds: Double
    /// Where it ends on the recording's timeline (nil for plans that did not record it).
    package var endSeconds: Double?
    /// The cut before it went through speech; nil for plans that did not record it.
    package var startsInSpeech: Bool?
    package var path: String
    /// Its upload's time map as JSON (`PlannedChunk.timeMap`); nil for older plans.
    package var timeMap: String?
    /// Nil until the chunk is transcribed.
    package var result: ChunkResult?

    /// How much of the recording it covers, when known (its upload holds at most that much audio).
    package var seconds: Double? { endSeconds.map { max(0, $0 - startSeconds) } }

    init(row: Row) throws {
        jobId = try row.decode(forColumn: "jobId")
        parentJobId = try row.decode(forColumn: "parentJobId")
        index = try row.decode(forColumn: "chunkIndex")
        startSeconds = try row.decode(forColumn: "startSeconds")
        endSeconds = try row.decode(forColumn: "endSeconds")
        startsInSpeech = try row.decode(forColumn: "startsInSpeech")
        path = try row.decode(forColumn: "path")
        timeMap = row.hasColumn("timeMap") ? try row.decode(forColumn: "timeMap") : nil
        let json: String? = try row.decode(forColumn: "result")
        result = try json.map { try JSONDecoder().decode(ChunkResult.self, from: Data($0.utf8)) }
    }
}

/// How storing a chunk's result ended.
package enum ChunkCompletion: Sendable, Equatable {
    /// The lease was gone (cancelled, taken over): the result was dropped.
    case dropped
    /// Stored; other chunks of the recording are still to come (`done` of `total` have results).
    case stored(parentJobId: Int64, done: Int, total: Int)
    /// It was the last: the recording's transcript is stored and its job done. The chunk
    /// files listed (those voicejournal made, see `HomeFiles.ownChunkFiles`) are no longer needed.
    case assembled(parentJobId: Int64, chunkPaths: [String])
}

extension JobQueue {
    /// The kind of a chunk's child job: one per chunk, as a recording has one job per kind.
    package static func chunkKind(index: Int) -> String { "\(Job.chunkKindPrefix)\(index + 1)" }

    /// Queues `chunks` as child jobs of the job `id` (held by `owner`), with its priority and
    /// attempts, and puts the parent aside until they are all transcribed: in one
    /// transaction. False (nothing stored) when `owner` no longer holds the job.
    @discardableResult
    package func splitJob(id: Int64, owner: String, chunks: [PlannedChunk], durationSeconds: Double, now: Date = Date()) throws -> Bool {
        try immediateWrite { db in
            guard var parent = try Job.fetchOne(db, key: id), parent.state == .running, parent.leaseOwner == owner else { return false }
            try Self.removeChunks(db, parentJobId: id)
            for (index, chunk) in chunks.enumerated() {
                _ = try Self.insertChunk(db, chunk, index: index, parent: parent, now: now)
            }
            try db.execute(sql: "INSERT INTO chunked_job (jobId, chunkCount, durationSeconds) VALUES (?, ?, ?)",
                           arguments: [id, chunks.count, durationSeconds])
            // Waiting: queued, so it counts as unfinished, but never claimed (see claimNextJob).
            parent.release(to: .queued, now: now)
            try parent.update(db)
            return true
        }
    }

    /// The chunk a child job uploads, or nil when the job is not a chunk.
    package func chunk(jobId: Int64) throws -> JobChunk? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM job_chunk WHERE jobId = ?", arguments: [jobId]).map(JobChunk.init)
        }
    }

    /// Stores a chunk's result and marks its job done, if `owner` still holds it. When it is
    /// the last chunk of its recording, `assemble` makes the recording's transcript from all
    /// the chunks (in order) and it is stored, the parent job done, in the same transaction.
    package func completeChunk(jobId: Int64, owner: String, result: ChunkResult,
                              assemble: ([JobChunk]) -> Transcript, now: Date = Date()) throws -> ChunkCompletion {
        try immediateWrite { db in
            guard var job = try Job.fetchOne(db, key: jobId), job.state == .running, job.leaseOwner == owner,
                  let chunk = try Row.fetchOne(db, sql: "SELECT * FROM job_chunk WHERE jobId = ?", arguments: [jobId]).map(JobChunk.init)
            else { return .dropped }
            let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
            try db.execute(sql: "UPDATE job_chunk SET result = ? WHERE jobId = ?", arguments: [json, jobId])
            job.release(to: .done, now: now)
            try job.update(db)

            return try Self.assembleIfComplete(db, parentJobId: chunk.parentJobId, assemble: assemble, now: now,
                                               files: HomeFiles(home))
        }
    }

    /// Inserts one chunk's child job (with its parent's priority and attempts) and its row.
    static func insertChunk(_ db: Database, _ chunk: PlannedChunk, index: Int, parent: Job, now: Date) throws -> Job {
        var child = Job(recordingId: parent.recordingId, kind: chunkKind(index: index), priority: parent.priority,
                        maxAttempts: parent.maxAttempts, runAfter: now, createdAt: now, updatedAt: now)
        try child.insert(db)
        try db.execute(sql: """
            INSERT INTO job_chunk (jobId, parentJobId, chunkIndex, startSeconds, endSeconds, startsInSpeech, path, timeMap)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [child.id, parent.id, index, chunk.startSeconds, chunk.endSeconds, chunk.startsInSpeech,
                             chunk.path, chunk.timeMap])
        return child
    }

    /// When every chunk of the waiting parent has its result and its plan is closed (a live
    /// recording's stays open while pieces are added), stores the recording's transcript,
    /// drops the plan and marks the parent done; otherwise says how far it is.
    static func assembleIfComplete(_ db: Database, parentJobId: Int64, assemble: ([JobChunk]) -> Transcript,
                                   now: Date, files: HomeFiles) throws -> ChunkCompletion {
        let chunks = try Row.fetchAll(db, sql: "SELECT * FROM job_chunk WHERE parentJobId = ? ORDER BY chunkIndex",
                                      arguments: [parentJobId]).map(JobChunk.init)
        let done = chunks.count { $0.result != nil }
        let open = try Bool.fetchOne(db, sql: "SELECT open FROM chunked_job WHERE jobId = ?", arguments: [parentJobId]) ?? false
        guard done == chunks.count, !open,
              var parent = try Job.fetchOne(db, key: parentJobId), parent.state == .queued
        else { return .stored(parentJobId: parentJobId, done: done, total: chunks.count) }
        // A recording done again replaces its transcript (see `storeTranscript`).
        try storeTranscript(db, recordingId: parent.recordingId, assemble(chunks), now: now)
        try removeChunks(db, parentJobId: parentJobId)
        parent.release(to: .done, now: now)
        try parent.update(db)
        return .assembled(parentJobId: parentJobId, chunkPaths: files.ownChunkFiles(chunks.map(\.path)))
    }

    /// Fails a chunk's child job that `owner` holds, and with it the recording's job (with
    /// `message`), and drops the chunk plan (a retry plans again): in one transaction, so no
    /// other runner's claim can drop the plan in between (`failParentsOfFailedChunks`) and
    /// take the list of its files with it. Returns the chunk files no longer needed (those
    /// voicejournal made, see `HomeFiles.ownChunkFiles`); nil when `owner` no longer holds the
    /// chunk's job or it is not a chunk.
    package func failChunk(jobId: Int64, owner: String, message: String, now: Date = Date()) throws -> [String]? {
        try immediateWrite { db in
            guard let job = try Job.fetchOne(db, key: jobId), job.state == .running, job.leaseOwner == owner,
                  let parentId = try Int64.fetchOne(db, sql: "SELECT parentJobId FROM job_chunk WHERE jobId = ?", arguments: [jobId])
            else { return nil }
            let paths = try String.fetchAll(db, sql: "SELECT path FROM job_chunk WHERE parentJobId = ?", arguments: [parentId])
            try db.execute(sql: """
                UPDATE job SET state = 'failed', lastError = ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?
                WHERE id = ? AND state IN ('queued', 'running')
                """, arguments: [message, now, parentId])
            try Self.removeChunks(db, parentJobId: parentId)
            return HomeFiles(home).ownChunkFiles(paths)
        }
    }

    /// The chunk files some job still needs.
    /// The other chunks of the same recording that have their results (for the recording's
    /// own rate of words, against which a text-only answer is judged).
    package func finishedSiblings(ofChunk jobId: Int64) throws -> [JobChunk] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM job_chunk WHERE result IS NOT NULL AND jobId != ?
                  AND parentJobId = (SELECT parentJobId FROM job_chunk WHERE jobId = ?)
                """, arguments: [jobId, jobId]).map(JobChunk.init)
        }
    }

    package func chunkPathsInUse() throws -> Set<String> {
        try pool.read { db in Set(try String.fetchAll(db, sql: "SELECT path FROM job_chunk")) }
    }

    /// Drops a parent's chunk plan: its child jobs (and with them their chunk rows) and its
    /// waiting mark. A parent that is not waiting has no plan, so a retry plans afresh.
    static func removeChunks(_ db: Database, parentJobId: Int64) throws {
        try db.execute(sql: "DELETE FROM job WHERE id IN (SELECT jobId FROM job_chunk WHERE parentJobId = ?)", arguments: [parentJobId])
        try db.execute(sql: "DELETE FROM chunked_job WHERE jobId = ?", arguments: [parentJobId])
    }

    /// Fails, with their chunk's message, the waiting parents of chunks that failed for good
    /// outside a worker's hands (their workers kept dying), and drops their plans.
    static func failParentsOfFailedChunks(_ db: Database, now: Date) throws {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT c.parentJobId AS parent, c.chunkIndex AS idx, child.lastError AS error
            FROM job_chunk c JOIN job child ON child.id = c.jobId
            WHERE child.state IN ('failed', 'cancelled')
            """))
        for row in rows {
            let parent: Int64 = try row.decode(forColumn: "parent")
            let index: Int = try row.decode(forColumn: "idx")
            let error: String? = try row.decode(forColumn: "error")
            try db.execute(sql: """
                UPDATE job SET state = 'failed', lastError = ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?
                WHERE id = ? AND state IN ('queued', 'running')
                """, arguments: ["chunk \(index + 1): \(error ?? "failed")", now, parent])
            try removeChunks(db, parentJobId: parent)
        }
    }
}
