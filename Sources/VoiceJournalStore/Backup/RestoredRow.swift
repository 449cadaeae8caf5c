import Foundation

/// A row of a backup's snapshot as it is written into the journal it is restored into: its
/// recording paths made absolute in the new home, and the queue's work in progress made
/// fresh, since the runner that held it and its chunk files are not coming back.
enum RestoredRow {
    /// `row` of `table` as restored, or nil when it is not restored: a chunk plan (its files
    /// stayed in the old home's `tmp/`; the recording's job plans again).
    static func fixed(_ row: [String: JournalArchive.Value], of table: String, audio: RestoredAudio,
                      home: DataHome) -> [String: JournalArchive.Value]? {
        var row = row
        switch table {
        case "job_chunk", "chunked_job":
            return nil
        case Job.databaseTableName:
            if case .text(let kind)? = row["kind"], kind.hasPrefix(Job.chunkKindPrefix) { return nil }
            if case .text(let state)? = row["state"], state == JobState.running.rawValue || state == JobState.queued.rawValue {
                row["state"] = .text(JobState.queued.rawValue)
                row["leaseOwner"] = .null
                row["leaseExpiresAt"] = .null
            }
        case Recording.databaseTableName:
            // A backup names its audio relative to the home; a recording whose audio was
            // missing when it was taken keeps the absolute path it had (checked like any).
            if case .text(let name)? = row["path"], !name.hasPrefix("/") {
                row["path"] = .text(audio.paths[name] ?? (BackupName.isAcceptable(name) ? home.url.standardizedFileURL.path + "/" + name : name))
            }
        default:
            break
        }
        return row
    }
}
