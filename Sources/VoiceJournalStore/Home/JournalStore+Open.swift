import VoiceJournalCSearchRank
import Foundation
import GRDB
import Logging

/// Opening the database: the writable pool, the read-only fallback and the empty journal.
extension JournalStore {
    static func open(_ home: DataHome, for purpose: Purpose, logger: Logger) throws -> (any DatabaseWriter, Access) {
        let path = home.databaseURL.path
        if let file = home.fileInTheWay {
            throw StoreError.invalidInput("the data home \(home.url.path) cannot be used: \(file.path) is a file, not a folder")
        }
        do {
            switch purpose {
            case .writing:
                return (try openWritable(home), .readWrite)
            case .reading:
                guard FileManager.default.fileExists(atPath: path) else { return (try emptyJournal(), .empty) }
                guard home.isWritable else { return (try openReadOnly(home), .readOnly) }
                do {
                    return (try openForReading(home) ?? openWritable(home), .readWrite)
                } catch {
                    // A full disk cannot hold the -shm file or a migration; the journal can still be read.
                    guard let stored = StoreError.classify(error, home: home), stored.kind.isStorage else { throw error }
                    logger.info("reading the journal read-only", metadata: ["reason": "\(stored.description)"])
                    return (try openReadOnly(home), .readOnly)
                }
            }
        } catch {
            throw StoreError.classify(error, home: home) ?? error
        }
    }

    static var configuration: Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Several processes (two `queue run`s, `record` while a batch runs) share the file.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // Search ranks with `journal_rank`: bm25's scores at a third of its cost on common words.
            var code = search_rank_register(db.sqliteConnection, "search_index_docsize")
            // A hit's snippet and first match: snippet()'s text at a cost linear in the row's
            // matches (snippet() itself took a minute on a transcript of 100,000 words).
            if code == SQLITE_OK { code = search_snippet_register(db.sqliteConnection) }
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot set up search ranking")
            }
            // The second index's tokenizer and ranking (v15-search-scripts, see `SearchScripts`).
            try SearchScripts.register(db)
        }
        return config
    }

    /// The pool, creating the home (0700) and database (0600) if needed and migrating only
    /// when the schema is behind, so opening an up-to-date journal writes nothing.
    private static func openWritable(_ home: DataHome) throws -> DatabasePool {
        if !FileManager.default.fileExists(atPath: home.url.path) {
            try home.create()
        } else if !home.isWritable {
            throw StoreError(.readOnly, "the journal in \(home.url.path) is read-only: reading works, but nothing can be saved there")
        } else if let mode = (try? FileManager.default.attributesOfItem(atPath: home.url.path))?[.posixPermissions] as? Int,
                  mode & 0o077 != 0 {
            // A home others can look into is made private again before anything is saved in it.
            try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.url.path)
        }
        let path = home.databaseURL.path
        let isNew = !FileManager.default.fileExists(atPath: path)
        // Create the file 0600 before SQLite does, so there is no moment it is world-readable.
        if isNew {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError(.storageFailure, "cannot create the journal database \(path)")
            }
        }
        // SQLite gives the -wal and -shm files the database file's mode, so they are 0600 too.
        let pool = try DatabasePool(path: path, configuration: configuration)
        // A new journal gets every migration, an older one those it lacks; an up-to-date one
        // is only read.
        if try isNew || !pool.read(Migrations.migrator.hasCompletedMigrations) {
            try Migrations.migrate(pool)
        }
        return pool
    }

    /// One read-write connection to an up-to-date journal, or nil when it must be migrated
    /// first. A command that mostly reads starts faster on it than on the pool: a pool makes
    /// sure the write-ahead log is not empty by committing a table it drops again (two
    /// syncs, and a checkpoint with two more at exit); one connection needs none of that.
    private static func openForReading(_ home: DataHome) throws -> DatabaseQueue? {
        let queue = try DatabaseQueue(path: home.databaseURL.path, configuration: configuration)
        return try queue.read(Migrations.migrator.hasCompletedMigrations) ? queue : nil
    }

    /// A read-only connection; a journal whose schema is behind cannot be read this way.
    private static func openReadOnly(_ home: DataHome) throws -> DatabaseQueue {
        var config = configuration
        config.readonly = true
        let path = home.databaseURL.path
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        // With no write-ahead log to read, the file is the whole journal: `immutable` lets
        // SQLite read it without creating the -shm file, which a read-only or full disk
        // cannot hold. Committed work still in a log has to be read through SQLite's -shm.
        let queue = try DatabaseQueue(path: wal > 0 ? path : "file:\(uriEscaped(path))?immutable=1", configuration: config)
        guard try queue.read(Migrations.migrator.hasCompletedMigrations) else {
            throw StoreError(.readOnly, "the journal in \(home.url.path) was made by an older voicejournal and must be "
                + "upgraded once, which needs a writable disk; run any voicejournal command with write access")
        }
        return queue
    }

    /// An empty, migrated journal in memory: what there is to read in a home without one.
    static func emptyJournal() throws -> DatabaseQueue {
        var config = configuration
        config.label = "voicejournal.empty"
        let queue = try DatabaseQueue(configuration: config)
        try Migrations.migrator.migrate(queue)
        return queue
    }

    /// A path as the path of an SQLite `file:` URI.
    static func uriEscaped(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
