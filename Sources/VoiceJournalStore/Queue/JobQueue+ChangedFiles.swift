import Foundation
import GRDB

extension JobQueue {
    /// Gives the recording of a path already in the journal the new audio its file holds,
    /// for each file about to be queued whose content is not in the journal yet: the file is
    /// the recording, so a changed file is a new version of it, never a second recording of
    /// the same path (whose delete would remove the other's file). The old transcript is of
    /// audio no longer on disk and is dropped, the chunk plan of the old audio with it; the
    /// job is queued again (a running one is left to its worker, which checks the file
    /// before and after its upload). One transaction. Returns, by path, the recordings that
    /// had a transcript dropped.
    package func replaceChangedContent(of files: [Recording], now: Date = Date()) throws -> [String: Int64] {
        guard !files.isEmpty else { return [:] }
        return try immediateWrite { db in
            var replaced: [String: Int64] = [:]
            for file in files {
                guard let sha = file.sha256,
                      try Recording.filter(Recording.Columns.sha256 == sha).fetchCount(db) == 0,
                      var recording = try Recording.fetchOne(db.cachedStatement(sql: """
                          SELECT * FROM recording INDEXED BY recording_on_path WHERE path = ? AND state = 'complete' ORDER BY id DESC LIMIT 1
                          """), arguments: [file.path]),
                      let id = recording.id
                else { continue }
                recording.sha256 = sha
                recording.durationSeconds = file.durationSeconds
                recording.sampleRate = file.sampleRate
                recording.channels = file.channels
                recording.format = file.format
                recording.sizeBytes = file.sizeBytes
                recording.modifiedNanoseconds = file.modifiedNanoseconds
                // The levels were measured on the old content.
                recording.peakDBFS = nil
                recording.rmsDBFS = nil
                try recording.update(db)
                if try Transcript.filter(Transcript.Columns.recordingId == id).deleteAll(db) > 0 { replaced[file.path] = id }
                guard var job = try Job.fetchOne(db.cachedStatement(sql: "SELECT * FROM job WHERE recordingId = ? AND kind = ?"),
                                                 arguments: [id, Job.transcribeKind]), job.state != .running else { continue }
                try Self.removeChunks(db, parentJobId: try job.storedId())
                job.release(to: .queued, now: now)
                job.attempts = 0
                job.lastError = nil
                job.runAfter = now
                try job.update(db)
            }
            return replaced
        }
    }
}
