import Foundation
import Testing
import VoiceJournalTestSupport

/// Clients that behave badly on purpose, for the attack tests: a raw TCP connection that can
/// sit idle or send a byte at a time, and many curl uploads at once.
final class RawConnection: @unchecked Sendable {
    // @unchecked: used from one test's task only.
    let socket: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Unexpected("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Unexpected("connect: errno \(errno)")
        }
    }

    deinit { close(socket) }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the server closed the connection within `seconds` (reads and drops what it sent).
    func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            if ready <= 0 { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }

    /// Everything the server sends until it closes or `seconds` pass.
    func response(within seconds: Double) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

extension ServeHarness {
    /// `count` uploads of `file` at once (separate curl processes, started together); each
    /// reply's status and body, in start order.
    func parallelUploads(_ token: String, _ file: URL, count: Int, key: (Int) -> String,
                         type: String = "audio/webm", extra: [String] = []) throws -> [(status: Int, body: String)] {
        var running: [(Process, Pipe, URL)] = []
        for index in 0..<count {
            let body = folder.path("parallel-\(UUID().uuidString)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["curl", "-s", "-o", body.path, "-w", "%{http_code}", "--max-time", "120",
                                 "-H", "Idempotency-Key: \(key(index))", "-F", "audio=@\(file.path);type=\(type)"]
                + extra + [base + "/a/\(token)/answer"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            running.append((process, out, body))
        }
        return running.map { process, out, body in
            process.waitUntilExit()
            let status = Int(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)) ?? 0
            defer { try? FileManager.default.removeItem(at: body) }
            return (status, (try? String(contentsOf: body, encoding: .utf8)) ?? "")
        }
    }

    /// The server process's CPU time so far, in seconds (user + system, from /proc).
    func serverCPUSeconds() throws -> Double {
        let pid = try #require(server?.process.processIdentifier)
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which is in parentheses): state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
    }

    /// A question, assigned to a new person: the question's id, the assignment's id and its token.
    func question(_ text: String = "What did you play as a child?") throws -> (questionId: Int, id: Int, token: String) {
        let person = "Person \(UUID().uuidString.prefix(6))"
        _ = try binary.run(["person", "add", person])
        let asked = try binary.run(["question", "add", "--journal", "Family", text, "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int, "\(asked.stderr)")
        let assigned = try binary.run(["assign", "\(questionId)", "--person", person, "--json"])
        let json = try #require(try assigned.json() as? [String: Any], "\(assigned.stderr)")
        return (questionId, try #require(json["id"] as? Int), try #require(json["linkToken"] as? String))
    }

    /// An answer's speech (`makeTone`'s synthetic voice) as 16 kHz mono WAV (32 kB a second).
    func tone(seconds: Double, name: String = "tone", frequency: Int = 330) throws -> URL {
        try makeTone(at: folder.path("\(name).wav"), seconds: seconds, frequency: frequency)
    }
}
