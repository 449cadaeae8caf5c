import Foundation
import Synchronization
import Terminal

/// Reads keys from a terminal on a thread of its own and hands each to `pressed`, until
/// `cancel()` or the end of input. It waits on the input and on a pipe of its own, which
/// `cancel()` closes, so it never blocks a cooperative thread nor outlives the player.
final class KeyReader: Sendable {
    /// The pipe's writing end until `cancel()` closes it.
    private let wakeWrite: Mutex<Int32>

    init(input: Int32, pressed: @escaping @Sendable (KeyPress) -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wakeWrite = Mutex(ends[1])
        let wakeRead = ends[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            var keys = KeyPress.Reader()
            var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            defer { if wakeRead >= 0 { close(wakeRead) } }
            while true {
                let ready = poll(&watched, nfds_t(watched.count), -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, watched[1].revents == 0 else { return }
                let count = read(input, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { return }
                for key in keys.keys(from: buffer[0..<count]) { pressed(key) }
            }
        }
        reader.name = "voicejournal player keys"
        reader.start()
    }

    /// Stops reading (the thread ends at its next wake-up, at once if it is waiting).
    func cancel() {
        wakeWrite.withLock { end in
            if end >= 0 { close(end) }
            end = -1
        }
    }
}
