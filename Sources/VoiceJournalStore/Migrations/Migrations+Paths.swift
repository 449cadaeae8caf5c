import GRDB

extension Migrations {
    /// Recordings found by their file's path.
    package static let recordingPath = "v11-recording-path"

    /// `transcribe` looks up the recording of each file whose audio is new to the journal,
    /// by path (a changed file is a new version of its recording, not a second one): an
    /// index, so a batch of new files does not scan every recording once per file.
    static func indexRecordingPath(_ db: Database) throws {
        try db.create(index: "recording_on_path", on: "recording", columns: ["path"])
    }
}
