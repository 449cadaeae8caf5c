import Foundation
import Synchronization

/// The `serve` running on a data home now, as the record it leaves there (`serve.json`): its
/// process, where it listens and where its links point. Commands that print an answer link
/// follow it, so the link they print is one the running server answers.
///
/// The record alone proves nothing — a serve killed with SIGKILL leaves it behind. A running
/// serve holds an exclusive `flock` on `serve.lock` beside it for as long as it runs, and the
/// kernel drops that lock however the process ends; a reader that can take the lock itself
/// knows nobody serves, and ignores the record (removing it when the home lets it).
public struct RunningServe: Codable, Sendable, Equatable {
    /// The serve's process id.
    public let pid: Int32
    /// Where it listens: `http://HOST:PORT`.
    public let address: String
    /// Where its links point: links are `<links>/a/<token>`.
    public let links: String

    public init(pid: Int32, address: String, links: String) {
        self.pid = pid
        self.address = address
        self.links = links
    }

    /// The record's file in `home`.
    public static func recordURL(in home: DataHome) -> URL { home.url.appendingPathComponent("serve.json") }

    /// The file a running serve holds its lock on. It stays when the serve stops: removing a
    /// lock file would let a reader lock one inode while the next serve locks another.
    public static func lockURL(in home: DataHome) -> URL { home.url.appendingPathComponent("serve.lock") }

    /// The serve running on `home`, if any. Reads only (a read-only home is fine), except that
    /// a record no serve holds the lock for is removed while the reader holds it, so a serve
    /// starting at that moment cannot lose its fresh record to the removal.
    public static func find(in home: DataHome) -> RunningServe? {
        let descriptor = open(lockURL(in: home).path, O_RDONLY | O_CLOEXEC)
        // No lock file: no serve has run on this home (or it cannot be read: none to follow).
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A shared lock, so that two readers at once do not take each other for a serve.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            unlink(recordURL(in: home).path)
            flock(descriptor, LOCK_UN)
            return nil
        }
        guard errno == EWOULDBLOCK,
              let data = FileManager.default.contents(atPath: recordURL(in: home).path) else { return nil }
        return try? JSONDecoder().decode(RunningServe.self, from: data)
    }
}

extension RunningServe {
    /// What `claim(_:)` found.
    package enum Claimed: Sendable {
        /// This process holds the home's serve lock.
        case held(Hold)
        /// Another serve holds it; its record, once it has written one.
        case taken(RunningServe?)
        /// The lock file could not be opened or locked: the system's reason.
        case failed(String)
    }

    /// Takes the home's serve lock for this process. A reader holds the lock (shared) for a
    /// few microseconds while it looks, so a refusal is tried again for up to a second before
    /// it counts as another serve's.
    package static func claim(_ home: DataHome) async -> Claimed {
        let descriptor = open(lockURL(in: home).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failed(String(cString: strerror(errno))) }
        for attempt in 0..<50 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // What a killed serve left is no longer true from here on.
                unlink(recordURL(in: home).path)
                return .held(Hold(descriptor: descriptor, home: home))
            }
            guard errno == EWOULDBLOCK else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                return .failed(reason)
            }
            if attempt < 49 { try? await Task.sleep(for: .milliseconds(20)) }
        }
        close(descriptor)
        return .taken(find(in: home))
    }

    /// A serve's hold on its home: the lock for as long as it runs, and the record once it
    /// listens. `release()` (or the end of the process, however it ends) gives both up.
    package final class Hold: Sendable {
        private let descriptor: Int32
        private let home: DataHome
        /// Whether the record was written, and whether the hold was released.
        private let state = Mutex((recorded: false, released: false))

        fileprivate init(descriptor: Int32, home: DataHome) {
            self.descriptor = descriptor
            self.home = home
        }

        /// Writes the record (0600 like the rest of the home; through a temporary file, so a
        /// reader never sees half of it).
        package func record(_ serve: RunningServe) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(serve)
            try state.withLock { state in
                guard !state.released else { return }
                try PrivateFile.write(to: RunningServe.recordURL(in: home)) { handle in
                    try handle.write(contentsOf: data + Data("\n".utf8))
                    return (keep: true, result: ())
                }
                state.recorded = true
            }
        }

        /// Removes the record, then gives up the lock. Once only; later calls do nothing.
        package func release() {
            state.withLock { state in
                guard !state.released else { return }
                state.released = true
                if state.recorded { unlink(RunningServe.recordURL(in: home).path) }
                flock(descriptor, LOCK_UN)
                close(descriptor)
            }
        }

        deinit { release() }
    }
}
