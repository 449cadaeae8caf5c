import Foundation
import GRDB

/// How many jobs are in each state, for `queue status`.
public struct QueueCounts: Sendable, Equatable, Codable {
    public var queued = 0
    public var running = 0
    public var done = 0
    public var failed = 0
    public var cancelled = 0
    /// When the earliest queued job becomes due (nil if none is queued).
    public var nextDue: Date?

    public init() {}

    public var total: Int { queued + running + done + failed + cancelled }
}

/// A job with what the user knows it by (the file), for `queue list`.
public struct JobListing: Sendable, Equatable {
    public var job: Job
    public var path: String
    public var durationSeconds: Double
    /// For a recording split into chunks, waiting for them: how many are transcribed.
    public var chunksDone: Int?
    /// For a recording split into chunks, waiting for them: how many there are.
    public var chunksTotal: Int?
}

/// A job being worked on now, for `queue status`: which file, and which server it went to.
public struct RunningJob: Sendable, Equatable, Codable {
    public var jobId: Int64
    public var path: String
    /// The server the job was claimed for (its base URL, credentials hidden); nil when the
    /// runner did not say (an older voicejournal).
    public var endpoint: String?
    /// For a chunk of a long recording: which one (1-based).
    public var chunk: Int?
}

extension JobQueue {
    /// The running jobs (chunks included), oldest claim first.
    public func runningJobs() throws -> [RunningJob] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT job.id, job.endpoint, recording.path, job_chunk.chunkIndex AS chunk
                FROM job JOIN recording ON recording.id = job.recordingId
                LEFT JOIN job_chunk ON job_chunk.jobId = job.id
                WHERE job.state = 'running' AND job.id NOT IN (SELECT jobId FROM chunked_job)
                ORDER BY job.updatedAt, job.id
                """).map { row in
                let chunk: Int? = try row.decode(forColumn: "chunk")
                return RunningJob(jobId: try row.decode(forColumn: "id"), path: try row.decode(forColumn: "path"),
                                  endpoint: try row.decode(forColumn: "endpoint"), chunk: chunk.map { $0 + 1 })
            }
        }
    }

    /// Jobs per state.
    public func queueCounts() throws -> QueueCounts {
        try pool.read { db in
            var counts = QueueCounts()
            for row in try Row.fetchAll(db, sql: """
                SELECT state, count(*) AS n FROM job WHERE id NOT IN (SELECT jobId FROM job_chunk) GROUP BY state
                """) {
                let n: Int = try row.decode(forColumn: "n")
                let state: String = try row.decode(forColumn: "state")
                switch JobState(rawValue: state) {
                case .queued: counts.queued = n
                case .running: counts.running = n
                case .done: counts.done = n
                case .failed: counts.failed = n
                case .cancelled: counts.cancelled = n
                case nil: break
                }
            }
            counts.nextDue = try Date.fetchOne(db, sql: """
                SELECT min(runAfter) FROM job WHERE state = 'queued' AND id NOT IN (SELECT jobId FROM chunked_job)
                """)
            return counts
        }
    }

    /// Jobs with their files, most recently changed first; `state` and `ids` filter.
    public func listJobs(state: JobState? = nil, ids: Set<Int64>? = nil, limit: Int? = nil) throws -> [JobListing] {
        try pool.read { db in
            var sql = """
                SELECT job.*, recording.path AS path, recording.durationSeconds AS duration,
                    (SELECT chunkCount FROM chunked_job WHERE chunked_job.jobId = job.id) AS chunksTotal,
                    (SELECT count(*) FROM job_chunk WHERE job_chunk.parentJobId = job.id AND job_chunk.result IS NOT NULL) AS chunksDone
                FROM job JOIN recording ON recording.id = job.recordingId
                WHERE job.id NOT IN (SELECT jobId FROM job_chunk)
                """
            var arguments: StatementArguments = []
            if let state {
                sql += " AND job.state = ?"
                arguments += [state.rawValue]
            }
            if let ids {
                sql += " AND job.id IN (SELECT value FROM json_each(?))"
                arguments += ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            }
            sql += " ORDER BY job.updatedAt DESC, job.id DESC"
            if let limit { sql += " LIMIT \(max(0, limit))" }
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let chunksTotal = try row.decode(Int?.self, forColumn: "chunksTotal")
                return JobListing(job: try Job(row: row), path: try row.decode(forColumn: "path"),
                                  durationSeconds: try row.decode(forColumn: "duration"),
                                  chunksDone: chunksTotal == nil ? nil : try row.decode(forColumn: "chunksDone"), chunksTotal: chunksTotal)
            }
        }
    }

    /// The jobs with these ids, by id.
    public func jobs(ids: [Int64]) throws -> [Int64: Job] {
        try pool.read { db in
            let jobs = try Job.fetchAll(db, keys: ids)
            return Dictionary(jobs.compactMap { job in job.id.map { ($0, job) } }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// How many jobs are still to be done (queued or running): among `scope`, or in the
    /// whole queue when `scope` is nil.
    package func unfinishedJobCount(scope: JobScope? = nil) throws -> Int {
        try pool.read { db in
            guard let scope else {
                return try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM job WHERE state IN ('queued', 'running') AND id NOT IN (SELECT jobId FROM job_chunk)
                    """) ?? 0
            }
            // Walks the scope's id ranges by primary key: its size, not the queue's.
            return try Int.fetchOne(db, sql: """
                SELECT count(*) FROM json_each(?) r JOIN job ON job.id BETWEEN r.value ->> 0 AND r.value ->> 1
                WHERE job.state IN ('queued', 'running')
                """, arguments: [scope.json]) ?? 0
        }
    }
}
