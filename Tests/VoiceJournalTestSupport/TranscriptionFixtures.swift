import Foundation

/// Runs blocking work (a libcurl upload) on a thread of its own and awaits its result, so
/// tests keep blocking calls off Swift's cooperative pool just as the library does.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

/// Work started on a thread of its own at once (not when a busy test pool gets to it), whose
/// result is awaited later: a watcher must be running before what it watches starts.
public final class StartedThread<T: Sendable>: @unchecked Sendable {
    // `result` is written once by the thread before `done` is signalled, read only after.
    private var result: Result<T, Error>?
    private let done = DispatchSemaphore(value: 0)

    public init(_ body: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            result = Result { try body() }
            done.signal()
        }.start()
    }

    /// The body's result, once it has ended.
    public var value: T {
        get async throws {
            try await onOwnThread { [self] in
                done.wait()
                done.signal()
                return try result!.get()
            }
        }
    }
}

/// Makes a short 16 kHz mono WAV of "somebody speaking": a `SyntheticVoice` (a steady sine
/// would be a hum to the speech map, and a hum is never sent) whose pitch moves around one
/// that `frequency` stands for. Like sox's dither, a random least significant bit makes
/// every file different, even two of the same `frequency` (the journal takes files of equal
/// content for one recording).
@discardableResult
public func makeTone(at url: URL, seconds: Double = 0.5, frequency: Int = 440) throws -> URL {
    var generator = SystemRandomNumberGenerator()
    let voice = SyntheticVoice.pcm16(seconds: seconds, dbfs: -16, pitchHz: SyntheticVoice.pitch(standingFor: Double(frequency)))
        .map { $0 &+ Int16.random(in: -1...1, using: &generator) }
    guard url.pathExtension.lowercased() != "wav" else {
        try SyntheticVoice.writeWAV(voice, to: url)
        return url
    }
    // Another container (FLAC, OGG…): sox converts by the name's extension.
    let wav = FileManager.default.temporaryDirectory.appendingPathComponent("vj-voice-\(UUID().uuidString).wav")
    defer { try? FileManager.default.removeItem(at: wav) }
    try SyntheticVoice.writeWAV(voice, to: wav)
    try runTool("sox", [wav.path, url.path])
    return url
}

/// The hex SHA-256 of a file, by `sha256sum` (an independent check of what was uploaded).
public func sha256sum(_ url: URL) throws -> String {
    String(try runTool("sha256sum", [url.path]).prefix(64))
}

/// A port on 127.0.0.1 that nothing listens on (bound, then released).
public func closedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw ToolFailure(command: "bind", status: errno, stderr: "cannot bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs one SQL query on a database file through Python's sqlite3 (an independent reader)
/// and returns the rows as JSON values.
public func queryDatabase(_ database: URL, _ sql: String) throws -> [[Any]] {
    let script = "import json,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute(sys.argv[2]).fetchall()))"
    let output = try runTool("python3", ["-c", script, database.path, sql])
    return (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]]) ?? []
}

/// Peak resident memory of a finished child, in kilobytes, as `/usr/bin/time -f %M` wrote it.
public func peakMemoryKilobytes(reportedIn file: URL) throws -> Int? {
    let text = try String(contentsOf: file, encoding: .utf8)
    return text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last
}
