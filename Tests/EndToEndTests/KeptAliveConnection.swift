import Foundation
#if canImport(Glibc)
import Glibc
#endif
import VoiceJournalTestSupport

/// One plain TCP connection to a local HTTP/1.1 server, kept open across requests the way a
/// client with keep-alive keeps it; each round trip sends one request and reads one response
/// (headers, then a `Content-Length` body). The socket keeps the system's defaults, so what a
/// round trip costs is what the server's way of writing costs.
final class KeptAliveConnection {
    /// A response: its status and body.
    struct Answer {
        let status: Int
        let body: String
    }

    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Unexpected(description: "socket() failed: errno \(errno)") }
        // A server that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw Unexpected(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `request` (a whole HTTP/1.1 request) and reads the one response it gets.
    func roundTrip(_ request: String) throws -> Answer {
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Unexpected(description: "send failed: errno \(errno)") }
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var bodyStart: Int?
        var length = 0
        while bodyStart.map({ received.count < $0 + length }) ?? true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw Unexpected(description: "the server closed the kept-alive connection (recv \(count), errno \(errno))")
            }
            received.append(contentsOf: buffer[0..<count])
            if bodyStart == nil, let end = received.range(of: Data("\r\n\r\n".utf8)) {
                bodyStart = end.upperBound
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        let head = String(decoding: received.prefix(bodyStart ?? 0), as: UTF8.self)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, body: String(decoding: received.suffix(from: bodyStart ?? 0), as: UTF8.self))
    }
}
