import Foundation
import GRDB

/// The job queue: claims with a lease, renewals, and the ways a claimed job ends.
///
/// Every state change is one SQLite write (or one IMMEDIATE transaction), so any number of
/// workers in any number of processes can share the queue: a job is only ever held by the
/// owner named in its lease, and a lease that is not renewed expires and frees the job.
extension JobQueue {
    /// Claims the most urgent job that is due, for `owner`, until `now + lease`: live
    /// recordings first (priority), then the oldest due. A running job whose lease has
    /// expired is due again (its worker died). With `scope`, only those jobs and live ones
    /// are taken. `endpoint` names the server it is claimed for (shown by `queue status`).
    /// With `whileAtLeast`, nothing is claimed unless at least that many jobs are queued and
    /// due (a slow server of a pool leaves the last few to faster ones). Nil when nothing is due.
    package func claimNextJob(owner: String, lease: TimeInterval, scope: JobScope? = nil, endpoint: String? = nil,
                             whileAtLeast: Int = 0, now: Date = Date()) throws -> Job? {
        try claimNextJobWithRecording(owner: owner, lease: lease, scope: scope, endpoint: endpoint,
                                      whileAtLeast: whileAtLeast, now: now)?.job
    }

    /// The same claim, with the job's recording (nil if it was deleted) and its journal's
    /// vocabulary read in its transaction: a worker then needs no read of its own (and no
    /// connection of the pool's readers) before the upload.
    package func claimNextJobWithRecording(owner: String, lease: TimeInterval, scope: JobScope? = nil, endpoint: String? = nil,
                                          whileAtLeast: Int = 0, now: Date = Date()) throws -> ClaimedJob? {
        try completeJobsAndClaim([], owner: owner, claims: [Claim(endpoint: endpoint, count: 1, whileAtLeast: whileAtLeast)],
                                 lease: lease, scope: scope, now: now).claimed.first?.first
    }

    /// Whether at least `count` queued jobs are due now (see `dueJobsLeft(_:atLeast:now:)`).
    package func dueJobsLeft(atLeast count: Int, now: Date = Date()) throws -> Bool {
        try pool.read { db in try Self.dueJobsLeft(db, atLeast: count, now: now) }
    }

    /// Whether at least `count` queued jobs are due: a walk of at most `count` rows of the
    /// `job_due` index (a waiting parent of chunks does not count).
    static func dueJobsLeft(_ db: Database, atLeast count: Int, now: Date) throws -> Bool {
        guard count > 1 else { return true } // the claim itself finds whether there is one
        let found = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT count(*) FROM (
                SELECT 1 FROM job INDEXED BY job_due
                WHERE state = 'queued' AND runAfter <= ? AND id NOT IN (SELECT jobId FROM chunked_job)
                LIMIT ?)
            """), arguments: [now, count]) ?? 0
        return found >= count
    }

    /// The longest lease a runner grants (and renews to). A running job whose lease ends
    /// later than that from now was not leased by a runner (an imported or hand-edited
    /// journal, a clock that jumped back): it counts as expired, or it would never be
    /// claimed again.
    package static let longestLease: TimeInterval = 3600

    /// The claim, inside a caller's transaction.
    static func claimNext(_ db: Database, owner: String, lease: TimeInterval, scope: JobScope?, endpoint: String?,
                          now: Date) throws -> Job? {
        let farthest = now.addingTimeInterval(longestLease)
        // A job whose workers keep dying (a file that crashes us) must not loop forever.
        try db.cachedStatement(sql: """
            UPDATE job SET state = 'failed', leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = :now,
                lastError = 'gave up after ' || attempts || ' attempts: the worker stopped before finishing'
            WHERE state = 'running' AND (leaseExpiresAt < :now OR leaseExpiresAt > :farthest) AND attempts >= maxAttempts
            """).execute(arguments: ["now": now, "farthest": farthest])
        try failParentsOfFailedChunks(db, now: now)
        // A chunked recording's job waits (queued, in `chunked_job`) while its chunks'
        // child jobs are claimed in its place. Claims run many times a second, so: the
        // statement is prepared once per connection; the queued and the expired candidates
        // are each the first row of an index walk (`job_due`), not a sort of the whole
        // queue; and the scope is a short list of id ranges, encoded once per run.
        let statement = try db.cachedStatement(sql: """
            UPDATE job SET state = 'running', leaseOwner = :owner, leaseExpiresAt = :expires,
                attempts = attempts + 1, updatedAt = :now, endpoint = :endpoint
            WHERE id = (
                SELECT id FROM (
                    SELECT * FROM (
                        SELECT id, priority, runAfter FROM job INDEXED BY job_due
                        WHERE state = 'queued' AND runAfter <= :now AND \(claimable)
                        ORDER BY priority DESC, runAfter, id LIMIT 1)
                    UNION ALL
                    SELECT * FROM (
                        SELECT id, priority, runAfter FROM job INDEXED BY job_due
                        WHERE state = 'running' AND (leaseExpiresAt < :now OR leaseExpiresAt > :farthest) AND \(claimable)
                        ORDER BY priority DESC, runAfter, id LIMIT 1))
                ORDER BY priority DESC, runAfter, id LIMIT 1)
            RETURNING *
            """)
        return try Job.fetchOne(statement, arguments: [
            "owner": owner, "expires": now.addingTimeInterval(min(lease, longestLease)), "now": now, "farthest": farthest,
            "kind": Job.transcribeKind, "scope": scope?.json, "live": Job.livePriority, "endpoint": endpoint,
        ])
    }

    /// Which candidate rows of `job` a claim may take: a recording's job or a chunk's (not
    /// the waiting parent of chunks), within the scope if there is one (live recordings
    /// always are; a chunk is when its parent is).
    private static let claimable = """
        (kind = :kind OR id IN (SELECT jobId FROM job_chunk))
        AND id NOT IN (SELECT jobId FROM chunked_job)
        AND (:scope IS NULL OR priority >= :live
             OR EXISTS (SELECT 1 FROM json_each(:scope) WHERE job.id BETWEEN value ->> 0 AND value ->> 1)
             OR EXISTS (SELECT 1 FROM job_chunk c, json_each(:scope) r
                        WHERE c.jobId = job.id AND c.parentJobId BETWEEN r.value ->> 0 AND r.value ->> 1))
        """

    /// Extends the leases of every job `owner` is running; returns how many it still holds.
    @discardableResult
    package func renewLeases(owner: String, lease: TimeInterval, now: Date = Date()) throws -> Int {
        try pool.write { db in try LeasedRows.renew(db, Job.self, owner: owner, lease: lease, now: now) }
    }

    /// The lease owners of running jobs, so a runner can find owners that are gone.
    package func leaseOwners() throws -> Set<String> {
        try pool.read { db in try LeasedRows.owners(db, of: Job.self) }
    }

    /// Ends the leases of `owners` now (their processes are known to be dead), so their
    /// jobs are due at once instead of when the leases would have run out. Returns how many
    /// jobs became due.
    @discardableResult
    package func expireLeases(of owners: Set<String>, now: Date = Date()) throws -> Int {
        guard !owners.isEmpty else { return 0 }
        return try pool.write { db in try LeasedRows.expire(db, Job.self, of: owners, now: now) }
    }

    /// Puts a failed attempt back in the queue until `retryAt`, or fails the job for good
    /// when it has used its attempts (or `retryAt` is nil). False if `owner` no longer
    /// holds the job. Returns the job as it now stands.
    @discardableResult
    package func failJob(id: Int64, owner: String, error: String, retryAt: Date?, now: Date = Date()) throws -> Job? {
        try pool.write { db in try LeasedRows.fail(db, Job.self, id: id, owner: owner, error: error, retryAt: retryAt, now: now) }
    }

    /// Hands a claimed job back untouched (the run is stopping): queued again, and the
    /// attempt does not count.
    package func releaseJob(id: Int64, owner: String, note: String? = nil, now: Date = Date()) throws {
        try pool.write { db in try LeasedRows.release(db, Job.self, id: id, owner: owner, note: note, now: now) }
    }

    /// Queues failed or cancelled jobs again with fresh attempts: the given ones, or every
    /// failed one when `ids` is nil. With `done`, a given job that is done is queued again
    /// too (transcribed anew): its transcript stays until the new one is stored, which then
    /// replaces it; if the new attempt fails, the old transcript is kept. Only recordings'
    /// jobs can be done again (a chunk's is part of its recording's). Returns the ids queued again.
    @discardableResult
    package func retryJobs(ids: [Int64]?, done: Bool = false, now: Date = Date()) throws -> [Int64] {
        try pool.write { db in
            if let ids {
                for id in ids {
                    guard let job = try Job.fetchOne(db, key: id) else { throw StoreError.notFound("no job \(id); see `voicejournal queue list`") }
                    if done && job.state == .done && job.kind == Job.transcribeKind { continue }
                    guard job.state == .failed || job.state == .cancelled else {
                        throw StoreError.conflict(job.state == .done
                            ? "job \(id) is done; `voicejournal queue retry --done \(id)` transcribes it again (the transcript stays until the new one is in)"
                            : "job \(id) is \(job.state.rawValue); only failed or cancelled jobs can be retried")
                    }
                }
            }
            let filter = ids.map { "id IN (\($0.map(String.init).joined(separator: ",")))" } ?? "state = 'failed'"
            let states = done && ids != nil ? "'failed', 'cancelled', 'done'" : "'failed', 'cancelled'"
            return try Int64.fetchAll(db, sql: """
                UPDATE job SET state = 'queued', attempts = 0, runAfter = ?, lastError = NULL, updatedAt = ?
                WHERE \(filter) AND state IN (\(states))
                RETURNING id
                """, arguments: [now, now])
        }
    }

    /// Cancels a job that has not finished. A worker holding it finds its lease gone and
    /// drops its result.
    package func cancelJob(id: Int64, now: Date = Date()) throws -> Job {
        try pool.write { db in
            guard var job = try Job.fetchOne(db, key: id) else { throw StoreError.notFound("no job \(id); see `voicejournal queue list`") }
            guard job.state == .queued || job.state == .running || job.state == .failed else {
                throw StoreError.conflict("job \(id) is already \(job.state.rawValue)")
            }
            try Self.removeChunks(db, parentJobId: id)
            job.release(to: .cancelled, now: now)
            try job.update(db)
            return job
        }
    }
}

/// The jobs a run is limited to, encoded once as the queue's SQL takes them: a JSON list of
/// `[first, last]` id ranges. A batch's jobs are mostly consecutive ids, so a claim checks a
/// few ranges instead of looking through thousands of ids.
package struct JobScope: Sendable, Equatable {
    package let ids: Set<Int64>
    let json: String

    package init(_ ids: Set<Int64>) {
        self.ids = ids
        var ranges: [(Int64, Int64)] = []
        for id in ids.sorted() {
            if let last = ranges.last, last.1 == id - 1 {
                ranges[ranges.count - 1].1 = id
            } else {
                ranges.append((id, id))
            }
        }
        json = "[" + ranges.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
    }
}
