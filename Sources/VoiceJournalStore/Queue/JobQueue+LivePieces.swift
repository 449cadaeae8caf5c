import Foundation
import GRDB

/// A live recording's plan of pieces as stored: its recording's job and how far the queued
/// pieces reach.
package struct LivePlan: Sendable, Equatable {
    /// The recording's transcription job, the pieces' parent.
    package var jobId: Int64
    /// Pieces may still be added (the recording has not ended).
    package var isOpen: Bool
    /// Pieces queued so far.
    package var pieceCount: Int
    /// Where the last piece ends on the recording's timeline (0 with no piece): audio after
    /// this is covered by no piece yet.
    package var coveredSeconds: Double

    package init(jobId: Int64, isOpen: Bool, pieceCount: Int, coveredSeconds: Double) {
        self.jobId = jobId
        self.isOpen = isOpen
        self.pieceCount = pieceCount
        self.coveredSeconds = coveredSeconds
    }
}

/// How ending a live plan left it.
package enum LivePlanEnding: Sendable, Equatable {
    /// No piece was ever queued: the plan is gone and the recording's job is an ordinary one,
    /// uploading the file as it is.
    case noPieces
    /// Closed; the last pieces are still being transcribed.
    case closed(pieceCount: Int)
    /// Closed with every piece already transcribed: the transcript is stored and the job
    /// done. The piece files listed are no longer needed.
    case assembled(chunkPaths: [String])
    /// The plan was no longer there (its job failed or was cancelled meanwhile).
    case gone
}

extension JobQueue {
    /// Queues the transcription of a recording that is starting, at live priority, as an
    /// open plan of pieces: never claimed itself, and never assembled before `endLivePieces`.
    package func beginLivePieces(recordingId: Int64, now: Date = Date()) throws -> Job {
        try immediateWrite { db in
            let job = try Self.enqueueTranscription(db, recordingId: recordingId, priority: Job.livePriority, now: now)
            try db.execute(sql: """
                INSERT OR IGNORE INTO chunked_job (jobId, chunkCount, durationSeconds, open) VALUES (?, 0, 0, 1)
                """, arguments: [job.id])
            return job
        }
    }

    /// Queues the next piece of an open plan as a chunk job; returns its job, or nil when the
    /// plan is closed or gone (its job failed or was cancelled): the caller removes the file.
    package func addLivePiece(jobId: Int64, piece: PlannedChunk, now: Date = Date()) throws -> Job? {
        try immediateWrite { db in
            guard try Bool.fetchOne(db, sql: "SELECT open FROM chunked_job WHERE jobId = ?", arguments: [jobId]) == true,
                  let parent = try Job.fetchOne(db, key: jobId), parent.state == .queued else { return nil }
            let index = try Int.fetchOne(db, sql: "SELECT count(*) FROM job_chunk WHERE parentJobId = ?", arguments: [jobId]) ?? 0
            let child = try Self.insertChunk(db, piece, index: index, parent: parent, now: now)
            try db.execute(sql: "UPDATE chunked_job SET chunkCount = ? WHERE jobId = ?", arguments: [index + 1, jobId])
            return child
        }
    }

    /// The live plan of the recording's job, if it has one (open or closed and unfinished).
    package func livePlan(recordingId: Int64) throws -> LivePlan? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT c.jobId AS jobId, c.open AS open,
                    (SELECT count(*) FROM job_chunk WHERE parentJobId = c.jobId) AS pieces,
                    (SELECT max(coalesce(endSeconds, startSeconds)) FROM job_chunk WHERE parentJobId = c.jobId) AS covered
                FROM chunked_job c JOIN job ON job.id = c.jobId
                WHERE job.recordingId = ? AND job.kind = ?
                """, arguments: [recordingId, Job.transcribeKind]) else { return nil }
            return LivePlan(jobId: try row.decode(forColumn: "jobId"), isOpen: try row.decode(forColumn: "open"),
                            pieceCount: try row.decode(forColumn: "pieces"), coveredSeconds: try row.decode(Double?.self, forColumn: "covered") ?? 0)
        }
    }

    /// Ends a live plan when its recording ends: queues `lastPieces` after the others and
    /// closes the plan, in one transaction. With no piece at all the plan is dropped and the
    /// job uploads the file as it is; when every piece is already transcribed, `assemble`
    /// makes the recording's transcript at once and the job is done.
    package func endLivePieces(jobId: Int64, lastPieces: [PlannedChunk], durationSeconds: Double,
                              assemble: ([JobChunk]) -> Transcript, now: Date = Date()) throws -> LivePlanEnding {
        try immediateWrite { db in
            guard try Bool.fetchOne(db, sql: "SELECT open FROM chunked_job WHERE jobId = ?", arguments: [jobId]) != nil,
                  let parent = try Job.fetchOne(db, key: jobId), parent.state == .queued else { return .gone }
            var count = try Int.fetchOne(db, sql: "SELECT count(*) FROM job_chunk WHERE parentJobId = ?", arguments: [jobId]) ?? 0
            for piece in lastPieces {
                _ = try Self.insertChunk(db, piece, index: count, parent: parent, now: now)
                count += 1
            }
            guard count > 0 else {
                try db.execute(sql: "DELETE FROM chunked_job WHERE jobId = ?", arguments: [jobId])
                return .noPieces
            }
            try db.execute(sql: "UPDATE chunked_job SET open = 0, chunkCount = ?, durationSeconds = ? WHERE jobId = ?",
                           arguments: [count, durationSeconds, jobId])
            switch try Self.assembleIfComplete(db, parentJobId: jobId, assemble: assemble, now: now, files: HomeFiles(home)) {
            case .assembled(_, let paths): return .assembled(chunkPaths: paths)
            default: return .closed(pieceCount: count)
            }
        }
    }

    /// How many recordings are being made with live pieces (their plans are open): their
    /// jobs stay queued until they end.
    package func openLivePlanCount() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM chunked_job WHERE open") ?? 0 }
    }

    /// The text of each transcribed piece of a recording's job, by piece index (for showing
    /// the transcript as it grows).
    package func pieceTexts(jobId: Int64) throws -> [Int: String] {
        try pool.read { db in
            var texts: [Int: String] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT * FROM job_chunk WHERE parentJobId = ? AND result IS NOT NULL
                """, arguments: [jobId]) {
                let chunk = try JobChunk(row: row)
                texts[chunk.index] = chunk.result?.text
            }
            return texts
        }
    }
}
