import Foundation
import GRDB
import Logging

/// The journal database at `<home>/voicejournal.sqlite`, private to the user (0600).
///
/// Opened for writing it is a GRDB pool (WAL, so readers never wait for the queue's writers),
/// migrated on open. Opened for reading it falls back to a read-only connection when the
/// home cannot be written (a mounted backup, a full disk), and to an empty in-memory journal
/// when there is no journal yet — so reading never needs a writable disk.
public final class JournalStore: Sendable {
    /// What the caller means to do with the store.
    public enum Purpose: Sendable {
        /// Save something: the home and database are created and migrated as needed.
        case writing
        /// Only read: nothing is created, and a home that cannot be written is read as it is.
        case reading
    }

    /// How the store was opened.
    public enum Access: Sendable, Equatable {
        /// The journal on disk, writable.
        case readWrite
        /// The journal on disk, read-only (the home or its disk cannot be written).
        case readOnly
        /// No journal exists in the home yet: an empty journal in memory; nothing was created.
        case empty
    }

    /// The underlying database; other modules extend the store rather than reaching in here.
    public let pool: any DatabaseWriter
    public let home: DataHome
    /// Whether writes can succeed (`.readWrite`) or the journal is only being read.
    public let access: Access
    let logger: Logger

    /// Opens the store in `home`. For `.writing` the home and database are created if needed
    /// and pending migrations run; for `.reading` see `Access`.
    public init(home: DataHome, for purpose: Purpose = .writing, logger: Logger) throws {
        self.home = home
        self.logger = logger
        (pool, access) = try Self.open(home, for: purpose, logger: logger)
    }

    /// True when nothing can be saved (read-only home, full disk, or no journal yet).
    public var isReadOnly: Bool { access != .readWrite }
}
