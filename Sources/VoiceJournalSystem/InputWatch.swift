import Foundation
import Synchronization

/// Hands what arrives on an input (standard input, a terminal) to `received`, from a thread
/// of its own, until `received` says it has had enough, the input ends, or `cancel()`. It
/// waits on the input and on a pipe of its own, which `cancel()` closes, so it never blocks a
/// cooperative thread nor outlives its owner's interest.
package final class InputWatch: Sendable {
    /// The pipe's writing end until `cancel()` closes it.
    private let wakeWrite: Mutex<Int32>

    /// `received` gets each read's bytes and returns whether to go on reading.
    package init(input: Int32, name: String, received: @escaping @Sendable (ArraySlice<UInt8>) -> Bool) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wakeWrite = Mutex(ends[1])
        let wakeRead = ends[0]
        DedicatedThread.start(name: name) {
            var buffer = [UInt8](repeating: 0, count: 256)
            var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            defer { if wakeRead >= 0 { close(wakeRead) } }
            while true {
                let ready = retryingOnInterrupt { poll(&watched, nfds_t(watched.count), -1) }
                guard ready > 0, watched[1].revents == 0 else { return }
                let count = retryingOnInterrupt { read(input, &buffer, buffer.count) }
                if count < 0, errno == EAGAIN { continue }
                guard count > 0, received(buffer[0..<count]) else { return }
            }
        }
    }

    /// Stops watching (the thread ends at its next wake-up, at once if it is waiting).
    package func cancel() {
        wakeWrite.withLock { end in
            if end >= 0 { close(end) }
            end = -1
        }
    }
}
