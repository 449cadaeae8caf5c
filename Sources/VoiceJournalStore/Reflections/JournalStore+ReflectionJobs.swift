import Foundation
import GRDB

/// The reflection queue: one job per entry, claimed with a lease, finished exactly once.
///
/// Every change is one SQLite write, so runners in several processes can share it; a lease
/// that is not renewed (its runner was killed) expires and frees the job. A reflection kept
/// for the entry finishes its job without a request (see `Reflector`): a runner killed after
/// storing the reflection and before marking the job done costs nothing when it is claimed again.
extension JournalStore {
    /// Queues a reflection of entry `entryId`; one already queued (or done) stays as it is.
    /// Returns the job.
    @discardableResult
    public func queueReflection(entryId: Int64, now: Date = Date()) throws -> ReflectionJob {
        try pool.write { db in
            guard try Entry.fetchOne(db, key: entryId) != nil else { throw StoreError.notFound("no entry \(entryId)") }
            if let job = try ReflectionJob.filter(sql: "entryId = ?", arguments: [entryId]).fetchOne(db) { return job }
            var job = ReflectionJob(entryId: entryId, now: now)
            try job.insert(db)
            return job
        }
    }

    /// The entry's reflection job, if one was queued.
    public func reflectionJob(entryId: Int64) throws -> ReflectionJob? {
        try pool.read { db in try ReflectionJob.filter(sql: "entryId = ?", arguments: [entryId]).fetchOne(db) }
    }

    /// Every reflection job, oldest first (tests and `queue status`).
    public func reflectionJobs() throws -> [ReflectionJob] {
        try pool.read { db in try ReflectionJob.order(sql: "id").fetchAll(db) }
    }

    /// Whether the entry has words to reflect on: typed text, or a transcript with text.
    private static let hasWords = """
        (EXISTS (SELECT 1 FROM entry WHERE entry.id = reflection_job.entryId AND trim(entry.content) <> '')
         OR EXISTS (SELECT 1 FROM recording JOIN transcript ON transcript.recordingId = recording.id
                    WHERE recording.entryId = reflection_job.entryId AND trim(transcript.text) <> ''))
        """

    /// Whether the job is one of the entries `:only` lists (a JSON list, `entryList`), or
    /// `:only` is NULL (every job).
    private static let onlyEntries = "(:only IS NULL OR entryId IN (SELECT value FROM json_each(:only)))"

    /// `entries` as `:only` takes them: a JSON list of ids; nil for every entry.
    private static func entryList(_ entries: Set<Int64>?) -> String? {
        entries.map { "[" + $0.sorted().map(String.init).joined(separator: ",") + "]" }
    }

    /// Claims the oldest due reflection job whose entry has words, for `owner` until
    /// `now + lease`; a running one whose lease expired counts as due (its runner died).
    /// With `entries`, only jobs of those entries. Nil when none is due.
    public func claimReflectionJob(owner: String, lease: TimeInterval, endpoint: String? = nil, entries: Set<Int64>? = nil,
                                   now: Date = Date()) throws -> ReflectionJob? {
        let farthest = now.addingTimeInterval(JobQueue.longestLease)
        let only = Self.entryList(entries)
        return try pool.write { db in
            // A job whose runners keep dying (a reply that crashes us) must not loop forever.
            try db.execute(sql: """
                UPDATE reflection_job SET state = 'failed', leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = :now,
                    lastError = 'gave up after ' || attempts || ' attempts: the runner stopped before finishing'
                WHERE state = 'running' AND (leaseExpiresAt < :now OR leaseExpiresAt > :farthest) AND attempts >= maxAttempts
                """, arguments: ["now": now, "farthest": farthest])
            return try ReflectionJob.fetchOne(db, sql: """
                UPDATE reflection_job SET state = 'running', leaseOwner = :owner, leaseExpiresAt = :expires,
                    attempts = attempts + 1, updatedAt = :now, endpoint = :endpoint
                WHERE id = (
                    SELECT id FROM reflection_job
                    WHERE ((state = 'queued' AND runAfter <= :now)
                           OR (state = 'running' AND (leaseExpiresAt < :now OR leaseExpiresAt > :farthest)))
                      AND \(Self.onlyEntries)
                      AND \(Self.hasWords)
                    ORDER BY runAfter, id LIMIT 1)
                RETURNING *
                """, arguments: ["owner": owner, "expires": now.addingTimeInterval(min(lease, JobQueue.longestLease)), "now": now,
                                 "farthest": farthest, "endpoint": endpoint, "only": only])
        }
    }

    /// Extends the leases of the reflection jobs `owner` runs; returns how many it holds.
    @discardableResult
    public func renewReflectionLeases(owner: String, lease: TimeInterval, now: Date = Date()) throws -> Int {
        try pool.write { db in try LeasedRows.renew(db, ReflectionJob.self, owner: owner, lease: lease, now: now) }
    }

    /// Marks the job done with the reflection that finished it. False if `owner` no longer
    /// holds it (its lease ran out and another runner took it).
    @discardableResult
    public func finishReflectionJob(id: Int64, owner: String, reflectionId: Int64?, now: Date = Date()) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE reflection_job SET state = 'done', reflectionId = ?, lastError = NULL, leaseOwner = NULL,
                    leaseExpiresAt = NULL, updatedAt = ?
                WHERE id = ? AND state = 'running' AND leaseOwner = ?
                """, arguments: [reflectionId, now, id, owner])
            return db.changesCount == 1
        }
    }

    /// A failed attempt: queued again until `retryAt`, or failed for good when the job has
    /// used its attempts (or `retryAt` is nil). Returns the job as it now stands; nil if
    /// `owner` no longer holds it.
    @discardableResult
    public func failReflectionJob(id: Int64, owner: String, error: String, retryAt: Date?, now: Date = Date()) throws -> ReflectionJob? {
        try pool.write { db in try LeasedRows.fail(db, ReflectionJob.self, id: id, owner: owner, error: error, retryAt: retryAt, now: now) }
    }

    /// Hands a claimed job back untouched (the run stops, its server is out): queued, and the
    /// attempt does not count.
    public func releaseReflectionJob(id: Int64, owner: String, note: String? = nil, now: Date = Date()) throws {
        try pool.write { db in try LeasedRows.release(db, ReflectionJob.self, id: id, owner: owner, note: note, now: now) }
    }

    /// The lease owners of running reflection jobs, so a runner can find owners that are gone.
    public func reflectionLeaseOwners() throws -> Set<String> {
        try pool.read { db in try LeasedRows.owners(db, of: ReflectionJob.self) }
    }

    /// Ends the leases of `owners` now (their processes are known to be dead): their jobs are
    /// due at once, not when the leases would have run out. Returns how many became due.
    @discardableResult
    public func expireReflectionLeases(of owners: Set<String>, now: Date = Date()) throws -> Int {
        guard !owners.isEmpty else { return 0 }
        return try pool.write { db in try LeasedRows.expire(db, ReflectionJob.self, of: owners, now: now) }
    }

    /// Queues failed reflection jobs again (all of them, or those of `entries`), attempts
    /// counted afresh. Returns their entries.
    @discardableResult
    public func retryReflectionJobs(entries: Set<Int64>? = nil, now: Date = Date()) throws -> [Int64] {
        let only = Self.entryList(entries)
        return try pool.write { db in
            try Int64.fetchAll(db, sql: """
                UPDATE reflection_job SET state = 'queued', attempts = 0, runAfter = :now, updatedAt = :now
                WHERE state = 'failed' AND \(Self.onlyEntries)
                RETURNING entryId
                """, arguments: ["now": now, "only": only])
        }
    }

    /// The reflection queue's jobs per state; queued jobs whose entries have no words yet
    /// count as waiting.
    public func reflectionJobCounts(now: Date = Date()) throws -> ReflectionJobCounts {
        try pool.read { db in
            var counts = ReflectionJobCounts()
            for row in try Row.fetchAll(db, sql: """
                SELECT state, \(Self.hasWords) AS words, count(*) AS n FROM reflection_job GROUP BY state, words
                """) {
                let n: Int = row["n"], words: Bool = row["words"]
                switch JobState(rawValue: row["state"]) {
                case .queued: if words { counts.queued += n } else { counts.waiting += n }
                case .running: counts.running += n
                case .done: counts.done += n
                case .failed: counts.failed += n
                case .cancelled: counts.cancelled += n
                case nil: break
                }
            }
            counts.nextDue = try Date.fetchOne(db, sql: "SELECT min(runAfter) FROM reflection_job WHERE state = 'queued' AND \(Self.hasWords)")
            return counts
        }
    }

    /// Whether some reflection job (of `entries`, if given) is queued or running, and whether
    /// one can be claimed now or will be after a backoff (its entry has words): what a
    /// runner waits for.
    public func pendingReflectionJobs(entries: Set<Int64>? = nil) throws -> (unfinished: Int, claimable: Int) {
        let only = Self.entryList(entries)
        return try pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*) AS unfinished, coalesce(sum(state = 'running' OR \(Self.hasWords)), 0) AS claimable
                FROM reflection_job WHERE state IN ('queued', 'running')
                  AND \(Self.onlyEntries)
                """, arguments: ["only": only])
            return (row?["unfinished"] ?? 0, row?["claimable"] ?? 0)
        }
    }
}
