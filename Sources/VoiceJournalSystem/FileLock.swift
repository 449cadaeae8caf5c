import Foundation

/// An exclusive `flock` on a file, held until released or deinit. A recorder holds one on its
/// file; a process that can take it knows no recorder is writing the file any more (the
/// kernel drops the lock when its holder exits, however it died).
package final class FileLock: @unchecked Sendable {
    // @unchecked: the descriptor is immutable and closed once, in deinit.
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes the lock without waiting; nil if another process (or descriptor) holds it or the
    /// file cannot be opened.
    package static func attempt(_ url: URL) -> FileLock? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard take(fd) else {
            close(fd)
            return nil
        }
        return FileLock(descriptor: fd)
    }

    deinit {
        Self.release(descriptor)
        close(descriptor)
    }

    /// Takes a `flock` on `descriptor` without waiting: exclusive (one holder) or shared (any
    /// number of readers, no exclusive holder). False when it was not taken, with `errno` set
    /// (`EWOULDBLOCK`: someone else holds it).
    package static func take(_ descriptor: Int32, shared: Bool = false) -> Bool {
        retryingOnInterrupt { flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) } == 0
    }

    /// Gives up the `flock` held on `descriptor` (closing it would too).
    package static func release(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
    }
}
