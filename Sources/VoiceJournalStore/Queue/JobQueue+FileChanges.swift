import Foundation
import GRDB

/// What a recording's file holds now, found when it no longer matched its stamp.
package struct ChangedAudio: Sendable, Equatable {
    package var sha256: String
    package var stamp: FileStamp
    /// What a probe of the new content found; nil keeps what the row says (a container
    /// libsndfile does not read).
    package var durationSeconds: Double?
    package var sampleRate: Int?
    package var channels: Int?

    package init(sha256: String, stamp: FileStamp, durationSeconds: Double? = nil, sampleRate: Int? = nil, channels: Int? = nil) {
        self.sha256 = sha256
        self.stamp = stamp
        self.durationSeconds = durationSeconds
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

extension JobQueue {
    /// Records that the file was checked (hashed again) and still holds the recording's audio.
    package func updateFileStamp(recordingId: Int64, stamp: FileStamp) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE recording SET sizeBytes = ?, modifiedNanoseconds = ? WHERE id = ?",
                           arguments: [stamp.sizeBytes, stamp.modifiedNanoseconds, recordingId])
        }
    }

    /// Gives a recording whose file was changed after it was queued the digest (and facts)
    /// of what the file holds now, so its transcript is stored under the right audio. When
    /// another recording already holds that audio nothing changes, and that recording's id
    /// is returned (the same audio is stored once).
    package func rekeyRecording(id: Int64, to audio: ChangedAudio) throws -> Int64? {
        do {
            return try pool.write { db in
                if let holder = try Self.recordingHolding(audio.sha256, besides: id, db) { return holder }
                guard var recording = try Recording.fetchOne(db, key: id) else {
                    throw StoreError.notFound("recording \(id) is no longer in the journal")
                }
                recording.sha256 = audio.sha256
                recording.fileStamp = audio.stamp
                if let duration = audio.durationSeconds { recording.durationSeconds = duration }
                if let rate = audio.sampleRate { recording.sampleRate = rate }
                if let channels = audio.channels { recording.channels = channels }
                // The levels were measured on the old content.
                recording.peakDBFS = nil
                recording.rmsDBFS = nil
                try recording.update(db)
                return nil
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // Another process stored the same audio between our check and the update.
            guard let holder = try pool.read({ db in try Self.recordingHolding(audio.sha256, besides: id, db) }) else { throw error }
            return holder
        }
    }

    /// The id of another recording keyed on `sha256`, if there is one.
    private static func recordingHolding(_ sha256: String, besides id: Int64, _ db: Database) throws -> Int64? {
        try Recording.select(Recording.Columns.id, as: Int64.self)
            .filter(Recording.Columns.sha256 == sha256 && Recording.Columns.id != id)
            .fetchOne(db)
    }
}
