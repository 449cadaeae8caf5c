import Foundation

/// Who holds a job's lease: `host:pid:nonce`. The nonce keeps two runners in one process
/// (or a recycled pid) apart; host and pid let a runner on the same machine see that the
/// holder's process is gone and take its jobs back at once rather than when the lease ends.
package struct LeaseOwner: Sendable, Equatable, CustomStringConvertible {
    package let host: String
    package let pid: Int32
    package let nonce: String

    /// A fresh owner for a runner in this process.
    package static func current() -> LeaseOwner {
        LeaseOwner(host: hostName, pid: getpid(),
                   nonce: String(UInt32.random(in: 0...UInt32.max), radix: 16))
    }

    /// An owner from its parts.
    package init(host: String, pid: Int32, nonce: String) {
        self.host = host
        self.pid = pid
        self.nonce = nonce
    }

    /// Parses an owner string; nil if it is not in this shape (another tool wrote it).
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]) else { return nil }
        host = parts.dropLast(2).joined(separator: ":")
        self.pid = pid
        nonce = String(parts[parts.count - 1])
    }

    package var description: String { "\(host):\(pid):\(nonce)" }

    /// True only when the owner ran on this machine in a process that no longer exists.
    /// Owners on other machines are never judged: their leases simply expire.
    package var isGone: Bool {
        guard host == Self.hostName, pid != getpid(), pid > 0 else { return false }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
