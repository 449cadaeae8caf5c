import Foundation

/// Calls back once when Enter is pressed on standard input (to press a take's `StopButton`),
/// from a thread of its own. End of input is not Enter: with stdin at /dev/null or a closed
/// pipe it never calls. `cancel()` ends the thread (it waits on stdin and on a pipe of its
/// own, which `cancel()` closes).
public final class EnterKeyWatch: Sendable {
    private let wakeWrite: Int32

    public init(_ pressed: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wakeWrite = ends[1]
        let wakeRead = ends[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            var watched = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            defer { if wakeRead >= 0 { close(wakeRead) } }
            while true {
                let ready = poll(&watched, nfds_t(watched.count), -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, watched[1].revents == 0 else { return }
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                if buffer[0..<count].contains(UInt8(ascii: "\n")) {
                    pressed()
                    return
                }
            }
        }
        reader.name = "voicejournal enter key"
        reader.start()
    }

    /// Stops watching.
    public func cancel() {
        if wakeWrite >= 0 { close(wakeWrite) }
    }
}
