import GRDB

extension Migrations {
    /// The endpoint a job was claimed for, when a run spreads its uploads over several servers.
    package static let jobEndpoint = "v9-job-endpoint"

    /// `job.endpoint` names the server (its base URL, credentials hidden) a running job was
    /// claimed for, so `queue status` can say where each upload is going; it stays after the
    /// job ends as the last server that had it. The column stays off `Job`, like the
    /// corrections' columns: claims write it, only the status reads it.
    static func addJobEndpoint(_ db: Database) throws {
        try db.alter(table: "job") { t in
            t.add(column: "endpoint", .text)
        }
    }
}
