import Foundation
import GRDB
import Logging

/// The journal database: a GRDB pool (WAL, so readers never wait for the queue's writers)
/// at `<home>/voicejournal.sqlite`, private to the user (0600), migrated on open.
public final class JournalStore: Sendable {
    /// The underlying pool; other modules extend the store rather than reaching in here.
    public let pool: DatabasePool
    public let home: DataHome
    let logger: Logger

    /// Opens (creating if needed) the store in `home`, running pending migrations.
    public init(home: DataHome, logger: Logger = Logger(label: "voicejournal.store")) throws {
        try home.create()
        self.home = home
        self.logger = logger
        let path = home.databaseURL.path
        // Create the file 0600 before SQLite does, so there is no moment it is world-readable.
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Several processes (two `queue run`s, `record` while a batch runs) share the file.
        config.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: config)
        // SQLite gives the -wal and -shm files the database file's mode, so they are 0600 too.
        try Migrations.migrator.migrate(pool)
    }
}
