import Foundation
import GRDB
import VoiceJournalSystem

/// What `backup` wrote.
package struct BackupSummary: Codable, Sendable, Equatable {
    package var entries: Int
    package var recordings: Int
    package var audioFiles: Int
    package var audioBytes: UInt64
    /// The archive's size.
    package var bytes: UInt64
    /// Recordings whose audio could not be read (named in the manifest).
    package var missing: [BackupManifest.MissingAudio]
}

extension JournalStore {
    /// Writes a backup of the journal to `handle` as one tar archive: a snapshot of the
    /// database taken with SQLite's online backup (one read transaction, so it is consistent
    /// while `serve` or a queue runner writes), every recording's audio file named by its path
    /// relative to the data home (the snapshot's recordings name them so too), and a manifest
    /// with each file's size and SHA-256. `progress` is told of each audio file as it is copied;
    /// `shouldStop` is asked as it goes (a `CancellationError` ends the backup, half-written).
    package func backup(to handle: FileHandle, now: Date = Date(), shouldStop: () -> Bool = { false },
                        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> BackupSummary {
        let snapshot = try snapshotFile()
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(snapshot.path + suffix) } }
        let audio = try takeSnapshot(into: snapshot)
        var writer = TarWriter(handle: handle)
        let database = try writer.add(fileAt: snapshot, name: BackupManifest.databaseName, shouldStop: shouldStop)
        var manifest = BackupManifest(format: BackupManifest.formatName, version: BackupManifest.currentVersion, createdAt: now,
                                      database: .init(name: BackupManifest.databaseName, size: database.size, sha256: database.sha256),
                                      audio: [], missing: audio.missing)
        for (index, file) in audio.files.enumerated() {
            progress(index, audio.files.count)
            do {
                let written = try writer.add(fileAt: URL(fileURLWithPath: file.path), name: file.name, shouldStop: shouldStop)
                manifest.audio.append(.init(name: file.name, size: written.size, sha256: written.sha256, recordings: file.recordings))
            } catch let error as CancellationError {
                throw error
            } catch let error as TarError {
                // The header promised bytes that are gone: the archive cannot go on.
                throw StoreError(.storageFailure, "the backup could not be written: \(error.description)")
            } catch {
                // Opening failed (the file went between the snapshot and now): nothing was written for it.
                manifest.missing += file.recordings.map { .init(recording: $0, reason: SystemError.reason(of: error)) }
            }
        }
        progress(audio.files.count, audio.files.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        _ = try writer.add(try encoder.encode(manifest), name: BackupManifest.manifestName, modified: now)
        try writer.finish()
        return BackupSummary(entries: audio.entries, recordings: audio.recordings, audioFiles: manifest.audio.count,
                             audioBytes: manifest.audio.reduce(0) { $0 + $1.size }, bytes: writer.offset,
                             missing: manifest.missing.sorted { $0.recording < $1.recording })
    }

    /// An audio file to copy into the backup.
    private struct AudioToCopy {
        let path: String
        let name: String
        var recordings: [Int64]
    }

    /// What the snapshot holds: the audio files to copy, the recordings whose audio is gone,
    /// and counts for the summary.
    private struct SnapshotContents {
        var files: [AudioToCopy] = []
        var missing: [BackupManifest.MissingAudio] = []
        var entries = 0
        var recordings = 0
    }

    /// Copies the database into `url` with SQLite's online backup, makes the copy a file of
    /// its own (no write-ahead log), and points its recordings at their names in the backup.
    private func takeSnapshot(into url: URL) throws -> SnapshotContents {
        let copy = try DatabaseQueue(path: url.path)
        try pool.backup(to: copy)
        return try copy.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            var contents = SnapshotContents()
            contents.entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
            var byPath: [String: Int] = [:]
            try db.inTransaction {
                for row in try Row.fetchAll(db, sql: "SELECT id, path FROM recording ORDER BY id") {
                    let id: Int64 = row["id"]
                    let path: String = row["path"]
                    contents.recordings += 1
                    var status = stat()
                    guard stat(path, &status) == 0 else {
                        contents.missing.append(.init(recording: id, reason: SystemError.text()))
                        continue
                    }
                    guard status.st_mode & S_IFMT == S_IFREG else {
                        contents.missing.append(.init(recording: id, reason: "not a regular file"))
                        continue
                    }
                    if let index = byPath[path] {
                        contents.files[index].recordings.append(id)
                    } else {
                        byPath[path] = contents.files.count
                        contents.files.append(AudioToCopy(path: path, name: BackupName.name(forAudioAt: path, recording: id, home: home),
                                                          recordings: [id]))
                    }
                    try db.execute(sql: "UPDATE recording SET path = ? WHERE id = ?", arguments: [contents.files[byPath[path]!].name, id])
                }
                return .commit
            }
            return contents
        }
    }

    /// A new, private file for the snapshot: in the home's `tmp/` (the same disk as the
    /// journal), or the system's temporary folder when the home cannot be written.
    private func snapshotFile() throws -> URL {
        let name = "backup-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite"
        let folder = home.url.appendingPathComponent("tmp", isDirectory: true)
        var candidates = [FileManager.default.temporaryDirectory]
        if home.isWritable, (try? home.createPrivateFolder(folder)) != nil { candidates.insert(folder, at: 0) }
        for candidate in candidates {
            let url = candidate.appendingPathComponent(name)
            let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
                return url
            }
        }
        throw StoreError(.storageFailure, "cannot create a file for the database snapshot in \(folder.path) or "
            + "\(FileManager.default.temporaryDirectory.path): \(SystemError.text())")
    }
}
