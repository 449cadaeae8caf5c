import Foundation
import Testing
import VoiceJournalTestSupport

/// A `voicejournal serve` started from the built binary on a free port of 127.0.0.1, over a
/// temporary home, with helpers to make assignments and send real HTTP requests (curl).
final class ServeHarness: @unchecked Sendable {
    // @unchecked: used from one test's task only; `server` is replaced only by restart().
    let folder: TemporaryFolder
    let binary: VoicejournalBinary
    private(set) var server: RunningCommand?
    private(set) var port = 0
    let serveArguments: [String]

    init(_ arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = []) throws {
        folder = try TemporaryFolder("voicejournal-serve")
        binary = VoicejournalBinary(home: folder.path("home"), environment: environment, launcher: launcher)
        serveArguments = arguments
        _ = try binary.run(["journal", "create", "Family"])
        try start()
    }

    deinit { stop(signal: SIGKILL) }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts the server (on a free port unless its arguments name one) and waits for its
    /// "Serving answers on" line.
    func start() throws {
        let port = serveArguments.contains("--port") ? [] : ["--port", "0"]
        let running = try binary.start(["serve"] + port + serveArguments)
        server = running
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let out = running.stdoutSoFar
            if let range = out.range(of: "Serving answers on http://127.0.0.1:"),
               let port = Int(out[range.upperBound...].prefix { $0.isNumber }) {
                self.port = port
                return
            }
            if !running.process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let result = running.wait()
        throw Unexpected("serve did not start: \(result.status) \(result.stdout) \(result.stderr)")
    }

    /// Stops the server with `signal` and collects what it printed.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> CommandResult? {
        guard let server else { return nil }
        self.server = nil
        if server.process.isRunning { server.signal(signal) }
        return server.wait()
    }

    /// Assigns a new question to a new person; the assignment's id and link token.
    func assignment(question: String = "Where did you grow up?") throws -> (id: Int, token: String) {
        let person = "Person \(UUID().uuidString.prefix(6))"
        _ = try binary.run(["person", "add", person])
        let asked = try binary.run(["question", "add", "--journal", "Family", question, "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int, "\(asked.stderr)")
        let assigned = try binary.run(["assign", "\(questionId)", "--person", person, "--json"])
        let json = try #require(try assigned.json() as? [String: Any], "\(assigned.stderr)")
        return (try #require(json["id"] as? Int), try #require(json["linkToken"] as? String))
    }

    /// The assignment's row.
    func row(_ id: Int) throws -> [String: Any] {
        try #require(try CaptureDatabase.rows(home: binary.home, "SELECT * FROM assignment WHERE id = ?", ["\(id)"]).first)
    }

    /// Recording rows of the assignment.
    func recordings(of id: Int) throws -> [[String: Any]] {
        try CaptureDatabase.rows(home: binary.home, "SELECT * FROM recording WHERE assignmentId = ?", ["\(id)"])
    }

    /// Files under the home's audio/ and incoming/ folders.
    func files(in name: String) -> [String] {
        let root = binary.home.appendingPathComponent(name)
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }.map(\.path)
    }

    /// A request's answer as curl saw it.
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// Sends a request with curl; `arguments` are curl's (e.g. `-F audio=@file`).
    func request(_ path: String, _ arguments: [String] = []) throws -> Reply {
        let headers = folder.path("headers-\(UUID().uuidString)"), body = folder.path("body-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: headers)
            try? FileManager.default.removeItem(at: body)
        }
        let status = try runTool("curl", ["-s", "-o", body.path, "-D", headers.path, "-w", "%{http_code}", "--max-time", "60"]
            + arguments + [base + path])
        let text = (try? String(contentsOf: headers, encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: Int(status) ?? 0, headers: fields, body: (try? String(contentsOf: body, encoding: .utf8)) ?? "")
    }

    /// Uploads `file` as the answer with `key` as its Idempotency-Key.
    func upload(_ token: String, _ file: URL, type: String = "audio/webm", key: String? = "take-1", extra: [String] = []) throws -> Reply {
        try request("/a/\(token)/answer", ["-F", "audio=@\(file.path);type=\(type)"]
            + (key.map { ["-H", "Idempotency-Key: \($0)"] } ?? []) + extra)
    }

    /// Speech (espeak-ng) as WebM/Opus at 48 kHz, as Chromium records it.
    func speechWebM(_ text: String = "I grew up in a small house by the sea.", name: String = "speech") throws -> URL {
        let wav = folder.path("\(name).wav"), webm = folder.path("\(name).webm")
        try CaptureFixtures.speak(text, to: wav)
        try runTool("ffmpeg", ["-loglevel", "error", "-y", "-i", wav.path, "-ar", "48000", "-c:a", "libopus", webm.path])
        return webm
    }
}

/// A test expectation that failed outside `#expect`.
struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
