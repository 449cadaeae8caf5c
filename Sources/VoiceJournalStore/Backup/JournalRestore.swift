import Foundation
import GRDB

/// What `restore` brought back.
package struct RestoreSummary: Codable, Sendable, Equatable {
    /// When the backup was taken.
    package var backupTakenAt: Date
    /// The rows written per table.
    package var rows: [String: Int]
    /// Audio files placed in the home (or found there already with the same bytes).
    package var audioFiles: Int
    package var audioBytes: UInt64
    /// Recordings restored without their audio (it was missing when the backup was taken).
    package var recordingsWithoutAudio: [Int64]
    package var entries: Int
    package var recordings: Int

    init(backupTakenAt: Date, rows: [String: Int], audioFiles: Int, audioBytes: UInt64, recordingsWithoutAudio: [Int64]) {
        (self.backupTakenAt, self.rows, self.audioFiles, self.audioBytes) = (backupTakenAt, rows, audioFiles, audioBytes)
        self.recordingsWithoutAudio = recordingsWithoutAudio
        entries = rows[Entry.databaseTableName] ?? 0
        recordings = rows[Recording.databaseTableName] ?? 0
    }
}

extension JournalStore {
    /// Restores a whole journal from the backup at `url` (see `backup(to:)`) into this one,
    /// which must be empty. The backup is untrusted input: unpacked into `tmp/` and checked
    /// against its manifest (`StagedBackup`), its database checked before it is read
    /// (`BackupSnapshot`), every row checked like an import's. The audio goes under the
    /// home's `audio/`, the rows in one transaction; when anything fails, nothing stays.
    package func restore(from url: URL) throws -> RestoreSummary {
        try archiver.checkEmpty(for: .backup)
        let staged = try StagedBackup(url, home: home)
        defer { staged.discard() }
        let snapshot = try BackupSnapshot(staged.database)
        let audio = try RestoredAudio(staged.manifest.audio.map(\.name), from: staged, home: home)
        do {
            let rows = try archiver.importRows(migrations: snapshot.migrations, from: .backup) { insert in
                var table = ""
                try JournalArchiver(pool: snapshot.queue, home: home).readArchive { part in
                    switch part {
                    case .migrations: break
                    case .table(let name): table = name
                    case .row(let row):
                        if let fixed = RestoredRow.fixed(row, of: table, audio: audio, home: home) { try insert(table, fixed) }
                    }
                }
            }
            return summary(rows, audio: audio, staged: staged, recordings: nil)
        } catch {
            audio.removeMade()
            throw error
        }
    }

    /// Brings the entries `ids` back from the backup at `url` into this journal, with
    /// everything that belongs to them (recordings and their audio, transcripts, jobs) and
    /// whatever they belong to that the journal no longer has (a deleted journal, person or
    /// question). An entry the journal still has is refused; so is a backup of another
    /// journal (a row with the same id made at another time).
    package func restore(entries ids: [Int64], from url: URL) throws -> RestoreSummary {
        let present = try pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM entry WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
        }
        if let id = present.first {
            throw StoreError.conflict("entry #\(id) is in the journal: there is nothing to restore (see: voicejournal entry show \(id))")
        }
        let staged = try StagedBackup(url, home: home)
        defer { staged.discard() }
        let snapshot = try BackupSnapshot(staged.database)
        let plan = try snapshot.queue.read { db in try RestorePlan(db, entries: ids) }
        let audio = try RestoredAudio(plan.audioNames, from: staged, home: home)
        do {
            let rows = try archiver.immediateWrite { db in
                let known = try JournalArchiver.checkMigrations(snapshot.migrations, db, source: .backup)
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                var writer = ArchiveRowWriter(db, home: home, source: .backup, tables: known)
                try snapshot.queue.read { source in
                    for (table, rowids) in plan.rows {
                        for rowid in rowids {
                            guard let row = try Row.fetchOne(source, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?",
                                                             arguments: [rowid]) else { continue }
                            if plan.parents.contains(.init(table: table, rowid: rowid)),
                               try Self.journalHas(row, of: table, db) { continue }
                            if let fixed = RestoredRow.fixed(try JournalArchive.values(of: row, table: table), of: table, audio: audio, home: home) {
                                try writer.insert(fixed, into: table)
                            }
                        }
                    }
                }
                try writer.checkReferences()
                return writer.counts
            }
            return summary(rows, audio: audio, staged: staged, recordings: Set(plan.audioNames))
        } catch {
            audio.removeMade()
            throw error
        }
    }

    /// Whether the journal has the row a restored entry refers to: the same id, made at the
    /// same moment. The same id made at another moment is another journal's row.
    private static func journalHas(_ row: Row, of table: String, _ db: Database) throws -> Bool {
        guard let id = row["id"] as Int64? else { return false }
        guard let mine = try Row.fetchOne(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE id = ?", arguments: [id]) else {
            return false
        }
        if row.hasColumn("createdAt"), mine["createdAt"] as Date? != row["createdAt"] as Date? {
            throw StoreError.conflict("this backup is not of this journal: its \(table) #\(id) is another \(table) than this journal's "
                + "(made at another time); nothing was restored. Restore it whole into a new folder: "
                + "voicejournal --home NEW_FOLDER restore FILE")
        }
        return true
    }

    private func summary(_ rows: [String: Int], audio: RestoredAudio, staged: StagedBackup, recordings: Set<String>?) -> RestoreSummary {
        let missing = staged.manifest.missing.map(\.recording)
        return RestoreSummary(backupTakenAt: staged.manifest.createdAt, rows: rows, audioFiles: audio.paths.count,
                              audioBytes: audio.bytes, recordingsWithoutAudio: recordings == nil ? missing.sorted() : [])
    }
}

extension JournalArchiver {
    /// Refuses, before any work, to write a whole journal into one that is not empty.
    func checkEmpty(for source: ArchiveSource) throws {
        try pool.read { db in try checkEmpty(db, tables: try Self.archivedTables(db), for: source) }
    }

    /// Refuses to write a whole journal into one that holds more than a new journal's "Myself".
    func checkEmpty(_ db: Database, tables: [String], for source: ArchiveSource) throws {
        if let held = try Self.heldRows(db, tables: tables) {
            throw StoreError.conflict("the data home \(home.url.path) already holds a journal (\(held)); "
                + "\(source.verb) into a new, empty one: voicejournal --home NEW_FOLDER \(source.verb) FILE"
                + (source == .backup ? ", or bring back chosen entries with --entry ID" : ""))
        }
    }
}

/// An entry a backup holds that the journal does not (deleted since, or never here).
package struct MissingEntry: Codable, Sendable, Equatable {
    package var id: Int64
    package var createdAt: Date
    package var journal: String
    /// The entry's text, or its recording's transcript, as the backup has it.
    package var text: String
    package var recordings: Int
}

extension JournalStore {
    /// The entries the backup at `url` holds that this journal does not, oldest first: what
    /// `restore FILE --entry ID` can bring back. The backup is checked as for a restore.
    package func entriesMissing(from url: URL) throws -> [MissingEntry] {
        let present = Set(try pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM entry") })
        let staged = try StagedBackup(url, home: home, keepingAudio: false)
        defer { staged.discard() }
        let snapshot = try BackupSnapshot(staged.database)
        return try snapshot.queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT e.id, e.createdAt, j.name AS journal,
                       coalesce(nullif(e.content, ''), (SELECT t.text FROM recording r JOIN transcript t ON t.recordingId = r.id
                                                        WHERE r.entryId = e.id ORDER BY r.id LIMIT 1), '') AS text,
                       (SELECT count(*) FROM recording r WHERE r.entryId = e.id) AS recordings
                FROM entry e JOIN journal j ON j.id = e.journalId ORDER BY e.createdAt, e.id
                """).compactMap { row in
                let id: Int64 = try row.decode(forColumn: "id")
                guard !present.contains(id) else { return nil }
                return MissingEntry(id: id, createdAt: try row.decode(forColumn: "createdAt"), journal: try row.decode(forColumn: "journal"),
                                    text: String((try row.decode(String.self, forColumn: "text")).prefix(200)),
                                    recordings: try row.decode(forColumn: "recordings"))
            }
        }
    }
}
