import Foundation

/// The OpenAI-compatible test server (Tests/Servers/whisper_stub.py) on 127.0.0.1, on a
/// port the OS picks. It checks every upload against the API's contract, can inject faults,
/// and records each request so a test can count and inspect them. Stopped on release.
public final class StubWhisperServer: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the process is only
    // terminated (idempotently) from stop()/deinit.
    public let port: Int
    public let logURL: URL
    private let process: Process
    private let folder: TemporaryFolder

    /// What the server does with a request.
    public enum Behaviour: Sendable {
        case ok
        case error(status: Int, code: String? = nil, message: String? = nil,
                   retryAfter: Double? = nil, retryAfterMs: Int? = nil)
        /// Starts a 200 answer, then resets the TCP connection.
        case reset
        /// Answers correctly after this many seconds.
        case slow(Double)
        /// A 200 whose body is cut-off JSON.
        case malformed
        /// A 401 whose message repeats the key the client sent (a server echoing secrets).
        case echoKey
        /// A good answer whose text ends with ` sha256:<hex>` of the uploaded bytes, so a
        /// test can tell which content a stored transcript came from.
        case echoSHA
        /// Reads the whole upload and never answers (a wedged server); the request is logged
        /// when the upload is in, with answer "hang".
        case hang
        /// A 200 with empty text, whatever the audio holds.
        case empty
        /// A good answer whose text is this (one segment over its first 1.5 s).
        case says(String)
        /// Answers from the upload's audio: one segment per region of speech the server finds
        /// in it (by energy), at the region's start and end, in the upload's time.
        case timed
        /// A 200 whose body is this, sent as it is, whatever was asked (a crafted answer).
        case body(String)
        /// `timed`, but only the first half (rounded up) of the upload's regions.
        case firstHalf
        /// `timed`, but without the last region (a one-region upload gets an empty answer).
        case dropLast
        /// `timed`, plus " Thanks for watching!" in the middle of the longest pause.
        case pausePhrase
        /// `timed`, but with two or more regions the last says "I went home." five times over
        /// (compression ratio 2.8).
        case loop
        /// One segment from the first region to the last, across every pause between them;
        /// its words as `words` says.
        case across(words: AcrossWords = .spread)

        /// The words an `across` answer gives.
        public enum AcrossWords: String, Sendable {
            /// Each region's words spread over that region.
            case spread
            /// As `spread`, but each later region's first word starts 0.1 s before the region
            /// before it ends: stretched across the pause.
            case stretched
            /// No words at all.
            case none
        }

        var json: [String: Any] {
            switch self {
            case .ok: return ["kind": "ok"]
            case let .error(status, code, message, retryAfter, retryAfterMs):
                var object: [String: Any] = ["kind": "error", "status": status]
                if let code { object["code"] = code }
                if let message { object["message"] = message }
                if let retryAfter { object["retry_after"] = retryAfter }
                if let retryAfterMs { object["retry_after_ms"] = retryAfterMs }
                return object
            case .reset: return ["kind": "reset"]
            case .slow(let seconds): return ["kind": "slow", "seconds": seconds]
            case .malformed: return ["kind": "malformed"]
            case .echoKey: return ["kind": "echo_key"]
            case .echoSHA: return ["kind": "echo_sha"]
            case .hang: return ["kind": "hang"]
            case .empty: return ["kind": "empty"]
            case .says(let text): return ["kind": "says", "text": text]
            case .body(let body): return ["kind": "body", "body": body]
            case .timed: return ["kind": "timed"]
            case .firstHalf: return ["kind": "first_half"]
            case .dropLast: return ["kind": "drop_last"]
            case .pausePhrase: return ["kind": "pause_phrase"]
            case .loop: return ["kind": "loop"]
            case .across(let words): return ["kind": "across", "words": words.rawValue]
            }
        }
    }

    /// A fault rule: files whose name contains `match` ("*" for all) get `responses` in
    /// order, each file separately, and `then` afterwards.
    public struct Rule: Sendable {
        public var match: String
        public var responses: [Behaviour]
        public var then: Behaviour
        public init(match: String = "*", responses: [Behaviour], then: Behaviour = .ok) {
            self.match = match
            self.responses = responses
            self.then = then
        }
    }

    /// Starts the server. `expectedKey` is the bearer key it requires (nil: no header
    /// allowed); `expectedCredentials` (`user:password`) makes it require HTTP basic
    /// authentication instead; `delay` is added before every successful answer; `stall`
    /// seconds pass before it starts reading each request body (a network that stops moving);
    /// `perAudioSecond` adds that many seconds per second of audio received (WAV, FLAC).
    /// `port` 0 lets the OS choose; a test can give one to start a server where a client already looks.
    /// `translateRules` answer `POST /v1/audio/translations` (default: "Translation of <stem>.");
    /// `language` is the language its `verbose_json` transcriptions name ("german": not English,
    /// so a run asked to translate sends a translation).
    public init(rules: [Rule] = [], delay: Double = 0, expectedKey: String? = nil,
                expectedCredentials: String? = nil, stall: Double = 0, perAudioSecond: Double = 0,
                port: Int = 0, translateRules: [Rule] = [], language: String = "english") throws {
        folder = try TemporaryFolder("whisper-stub")
        logURL = folder.path("requests.jsonl")
        let plan = rules.map { ["match": $0.match, "responses": $0.responses.map(\.json), "then": $0.then.json] }
        let planData = try JSONSerialization.data(withJSONObject: plan)
        let translatePlan = translateRules.map { ["match": $0.match, "responses": $0.responses.map(\.json), "then": $0.then.json] }
        let translateData = try JSONSerialization.data(withJSONObject: translatePlan)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.script.path, "--port", String(port), "--log", logURL.path,
                         "--plan", String(decoding: planData, as: UTF8.self), "--delay", String(delay),
                         "--stall", String(stall), "--per-audio-second", String(perAudioSecond),
                         "--translate-plan", String(decoding: translateData, as: UTF8.self), "--language", language]
        var environment = ProcessInfo.processInfo.environment
        if let expectedKey {
            // Through the environment, like the real client: keys stay off command lines.
            environment["STUB_EXPECTED_KEY"] = expectedKey
            arguments += ["--key-env", "STUB_EXPECTED_KEY"]
        }
        if let expectedCredentials {
            environment["STUB_EXPECTED_CREDENTIALS"] = expectedCredentials
            arguments += ["--basic-env", "STUB_EXPECTED_CREDENTIALS"]
        }
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ToolFailure(command: "whisper_stub.py", status: -1, stderr: "did not print its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// The stub server script in the package.
    public static var script: URL { PackagePaths.root.appendingPathComponent("Tests/Servers/whisper_stub.py") }

    /// The base URL to give the client (`OPENAI_BASE_URL`).
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Stops the server (idempotent).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Kills the server at once (SIGKILL): connections in flight break, new ones are refused.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The requests once at least `count` have been answered (or after `timeout` seconds).
    public func waitForRequests(_ count: Int, timeout: Double = 10) throws -> [StubRequest] {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = try requests()
        while seen.count < count && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            seen = try requests()
        }
        return seen
    }

    /// Every request the server has finished with, in the order it answered them.
    public func requests() throws -> [StubRequest] {
        guard let text = try? String(contentsOf: logURL, encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(StubRequest.self, from: Data($0.utf8)) }
    }
}

/// One request as the stub server saw it.
public struct StubRequest: Decodable, Sendable {
    public let receivedAt: Double
    public let respondedAt: Double?
    /// "transcribe" or "translate" (nil for a request to no known route).
    public let task: String?
    /// The client's port: requests on one kept-alive connection share it.
    public let connection: Int
    public let fields: [String: [String]]?
    public let file: File?
    /// Every way the request broke the API's contract; empty for a good request.
    public let problems: [String]
    public let authorizationOk: Bool?
    /// The names of the request's headers, as the server parsed them.
    public let headerNames: [String]?
    /// What the server answered: "ok", "reset", "slow", "malformed", "echo_key" or a status.
    public let answer: String
    /// For the kinds that answer from the audio (`timed`, …): the regions of speech found in
    /// the upload, in seconds of the upload's own time.
    public let regions: [[Double]]?

    public struct File: Decodable, Sendable {
        public let filename: String?
        public let contentType: String?
        public let bytes: Int64
        public let sha256: String
        /// The audio's length, read by the server from a WAV or FLAC header (for the kinds that
    /// answer from the audio, from the decoded audio when the header does not say); nil otherwise.
        public let audioSeconds: Double?
    }

    /// The single value of a text field.
    public func field(_ name: String) -> String? { fields?[name]?.first }

    enum CodingKeys: String, CodingKey {
        case receivedAt = "received_at", respondedAt = "responded_at", connection, fields, file, problems
        case authorizationOk = "authorization_ok", headerNames = "header_names", answer, regions, task
    }
}

extension StubRequest.File {
    enum CodingKeys: String, CodingKey {
        case filename, contentType = "content_type", bytes, sha256, audioSeconds = "audio_seconds"
    }
}
