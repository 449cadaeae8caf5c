import Foundation
import Synchronization
import VoiceJournalSystem

/// The `serve` running on a data home now, as the record it leaves there (`serve.json`): its
/// process, where it listens and where its links point. Commands that print an answer link
/// follow it, so the link they print is one the running server answers.
///
/// The record alone proves nothing — a serve killed with SIGKILL leaves it behind. A running
/// serve holds an exclusive `flock` on `serve.lock` beside it for as long as it runs, and the
/// kernel drops that lock however the process ends; a reader that can take the lock itself
/// knows nobody serves, and ignores the record (removing it when the home lets it).
package struct RunningServe: Codable, Sendable, Equatable {
    /// The serve's process id.
    package let pid: Int32
    /// Where it listens: `http://HOST:PORT`.
    package let address: String
    /// Where its links point: links are `<links>/a/<token>`.
    package let links: String

    package init(pid: Int32, address: String, links: String) {
        self.pid = pid
        self.address = address
        self.links = links
    }

    /// The record's file in `home`.
    package static func recordURL(in home: DataHome) -> URL { home.url.appendingPathComponent("serve.json") }

    /// The file a running serve holds its lock on. It stays when the serve stops: removing a
    /// lock file would let a reader lock one inode while the next serve locks another.
    package static func lockURL(in home: DataHome) -> URL { home.url.appendingPathComponent("serve.lock") }

    /// The serve running on `home`, if any (see `look(in:)`).
    package static func find(in home: DataHome) -> RunningServe? {
        if case .running(let serve) = look(in: home) { return serve }
        return nil
    }

    /// What a look for the serve running on a home found.
    package enum Lookup: Sendable, Equatable {
        /// No serve runs there.
        case none
        /// This serve does (its record as written: its links are the reader's to check).
        case running(RunningServe)
        /// The home's serve files are not what a serve leaves (a FIFO, a link, a record that
        /// cannot be read): ignored, and why, in words naming the file.
        case ignored(String)
    }

    /// The largest record a serve writes, with room to spare: a bigger file is not read.
    static let largestRecordBytes = 65_536

    /// Looks for the serve running on `home`. Reads only (a read-only home is fine), except
    /// that a record no serve holds the lock for is removed while the reader holds it, so a
    /// serve starting at that moment cannot lose its fresh record to the removal. The files
    /// are opened as `ControlFile`s: a FIFO or a link in their place is ignored, never waited on.
    package static func look(in home: DataHome) -> Lookup {
        let lock = lockURL(in: home).path
        let descriptor: Int32
        switch ControlFile.open(lock, O_RDONLY) {
        case .success(let opened): descriptor = opened
        // No lock file: no serve has run on this home.
        case .failure(.missing): return .none
        case .failure(.unusable(let why)): return .ignored("\(lock) is ignored: it \(why)")
        }
        defer { close(descriptor) }
        // A shared lock, so that two readers at once do not take each other for a serve.
        if FileLock.take(descriptor, shared: true) {
            unlink(recordURL(in: home).path)
            FileLock.release(descriptor)
            return .none
        }
        guard errno == EWOULDBLOCK else { return .none }
        let record = recordURL(in: home).path
        switch ControlFile.read(record, limit: largestRecordBytes) {
        case .success(let data):
            guard let serve = try? JSONDecoder().decode(RunningServe.self, from: data) else {
                return .ignored("\(record) is ignored: it is not a serve's record")
            }
            return .running(serve)
        // The serve has not written it yet.
        case .failure(.missing): return .none
        case .failure(.unusable(let why)): return .ignored("\(record) is ignored: it \(why)")
        }
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
        let descriptor: Int32
        switch ControlFile.open(lockURL(in: home).path, O_RDWR | O_CREAT) {
        case .success(let opened): descriptor = opened
        case .failure(.missing): return .failed(SystemError.text(ENOENT))
        case .failure(.unusable(let why)): return .failed("it \(why)")
        }
        for attempt in 0..<50 {
            if FileLock.take(descriptor) {
                // What a killed serve left is no longer true from here on.
                unlink(recordURL(in: home).path)
                return .held(Hold(descriptor: descriptor, home: home))
            }
            guard errno == EWOULDBLOCK else {
                let reason = SystemError.text()
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
                FileLock.release(descriptor)
                close(descriptor)
            }
        }

        deinit { release() }
    }
}
