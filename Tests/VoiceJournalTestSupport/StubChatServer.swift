import Foundation
@_exported import enum VoiceJournalChat.JSONValue

/// The OpenAI-compatible chat test server (Tests/Servers/chat_stub.py) on 127.0.0.1, on a port
/// the OS picks. It checks every `POST /v1/chat/completions` against the API's contract, answers
/// what a test plans (by default a valid answer shaped by the request's schema), can inject
/// faults, and records each request so a test can count and inspect them. Stopped on release.
public final class StubChatServer: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the process is only
    // terminated (idempotently) from stop()/kill()/deinit.
    public let port: Int
    public let logURL: URL
    private let process: Process
    private let folder: TemporaryFolder

    /// The `response_format` forms a server takes.
    public enum SchemaForm: String, Sendable {
        /// `{"type":"json_object","schema":{…}}` only (llama-cpp-python): the json_schema form
        /// gets its HTTP 500 (a pydantic validation error).
        case jsonObject = "json_object"
        /// `{"type":"json_schema","json_schema":{…}}` only (OpenAI): a json_object carrying a
        /// `schema` gets HTTP 400 "Unrecognized request argument supplied: schema".
        case jsonSchema = "json_schema"
        /// Either.
        case both
    }

    /// Whose context-length error a server gives.
    public enum ContextFlavour: String, Sendable {
        /// llama.cpp's 400: type `exceed_context_size_error` with `n_prompt_tokens` and `n_ctx`.
        case llama
        /// OpenAI's 400: code `context_length_exceeded`, the counts in its message.
        case openai
    }

    /// What the server does with a request.
    public enum Behaviour: Sendable {
        /// A good answer whose content is this, as it is (JSON, broken JSON, a code fence…).
        case says(String)
        /// A good answer whose content is valid JSON following the request's schema (either
        /// form): every required property, a string "stub <name>" (cut to its maxLength), a
        /// number its minimum, an enum its first value, an array its minItems items (an array
        /// of integers one: its enum's first value); `{"summary":"stub"}` when the request has
        /// no schema. The default.
        case reflect
        /// As `reflect`, but an array of integers with an enum (a reflection's highlights)
        /// takes the enum's last value: a highlight of the last sentence sent.
        case reflectCitingLast
        /// As `says`, with finish_reason "length": an answer cut at max_tokens.
        case length(String)
        /// OpenAI's error shape with this status; `retryAfter` and `retryAfterMs` become the
        /// Retry-After and retry-after-ms headers.
        case error(status: Int, code: String? = nil, type: String? = nil, message: String? = nil,
                   retryAfter: Double? = nil, retryAfterMs: Int? = nil)
        /// A context-length error (HTTP 400) in this server's words.
        case context(ContextFlavour)
        /// Starts a 200 answer, then resets the TCP connection.
        case reset
        /// Reads the request and never answers (a wedged server); the request is logged when
        /// it is in, with answer "hang" and no respondedAt.
        case hang
        /// Answers as `reflect` after this many seconds (plus the server's `delay`).
        case slow(Double)
        /// A 200 whose body is this, sent as it is (not JSON, cut JSON, a crafted answer).
        case body(String)
        /// Streamed: the first half of `content`, then the connection is reset.
        case cut(String)

        var json: [String: Any] {
            switch self {
            case .says(let content): return ["kind": "says", "content": content]
            case .reflect: return ["kind": "reflect"]
            case .reflectCitingLast: return ["kind": "reflect", "cite": "last"]
            case .length(let content): return ["kind": "length", "content": content]
            case let .error(status, code, type, message, retryAfter, retryAfterMs):
                var object: [String: Any] = ["kind": "error", "status": status]
                if let code { object["code"] = code }
                if let type { object["type"] = type }
                if let message { object["message"] = message }
                if let retryAfter { object["retry_after"] = retryAfter }
                if let retryAfterMs { object["retry_after_ms"] = retryAfterMs }
                return object
            case .context(let flavour): return ["kind": "context", "flavour": flavour.rawValue]
            case .reset: return ["kind": "reset"]
            case .hang: return ["kind": "hang"]
            case .slow(let seconds): return ["kind": "slow", "seconds": seconds]
            case .body(let body): return ["kind": "body", "body": body]
            case .cut(let content): return ["kind": "cut", "content": content]
            }
        }
    }

    /// A fault rule: requests whose last user message contains `match` ("*" for all) get
    /// `responses` in order, one per request the rule matches (counted per rule), and `then`
    /// afterwards. The first rule that matches a request answers it.
    public struct Rule: Sendable {
        public var match: String
        public var responses: [Behaviour]
        public var then: Behaviour
        public init(match: String = "*", responses: [Behaviour], then: Behaviour = .reflect) {
            self.match = match
            self.responses = responses
            self.then = then
        }
    }

    /// Starts the server. `expectedKey` is the bearer key it requires (nil: no Authorization
    /// header allowed); `delay` is added before every good answer; `accepts` the
    /// `response_format` forms it takes; a request whose prompt is estimated at more than
    /// `contextTokens` tokens (characters / 4, rounded up) gets the context-length error in
    /// `contextFlavour`'s words, whatever the rules say. `model` is what `GET /v1/models` lists.
    /// With `embeddings` (words mapped to concepts, e.g. ["bike": "cycle", "bicycle": "cycle"]),
    /// `POST /v1/embeddings` answers a vector per input; without, that route is a 404.
    /// `port` 0 lets the OS choose; a test can give one to start a server where a client already looks.
    public init(rules: [Rule] = [], delay: Double = 0, expectedKey: String? = nil, accepts: SchemaForm = .both,
                contextTokens: Int? = nil, contextFlavour: ContextFlavour = .llama, model: String = "stub-chat",
                embeddings: [String: String]? = nil, port: Int = 0) throws {
        folder = try TemporaryFolder("chat-stub")
        logURL = folder.path("requests.jsonl")
        let plan = rules.map { ["match": $0.match, "responses": $0.responses.map(\.json), "then": $0.then.json] }
        let planData = try JSONSerialization.data(withJSONObject: plan)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.script.path, "--port", String(port), "--log", logURL.path,
                         "--plan", String(decoding: planData, as: UTF8.self), "--delay", String(delay),
                         "--accepts", accepts.rawValue, "--context-flavour", contextFlavour.rawValue, "--model", model]
        if let contextTokens { arguments += ["--context-tokens", String(contextTokens)] }
        if let embeddings {
            arguments += ["--embeddings", String(decoding: try JSONSerialization.data(withJSONObject: embeddings), as: UTF8.self)]
        }
        var environment = ProcessInfo.processInfo.environment
        if let expectedKey {
            // Through the environment, like the real client: keys stay off command lines.
            environment["STUB_CHAT_EXPECTED_KEY"] = expectedKey
            arguments += ["--key-env", "STUB_CHAT_EXPECTED_KEY"]
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
            throw ToolFailure(command: "chat_stub.py", status: -1, stderr: "did not print its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// The stub server script in the package.
    public static var script: URL { PackagePaths.root.appendingPathComponent("Tests/Servers/chat_stub.py") }

    /// The base URL to give the client (ends in `/v1`).
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

    /// The requests once at least `count` have been logged (or after `timeout` seconds).
    public func waitForRequests(_ count: Int, timeout: Double = 10) throws -> [StubChatRequest] {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = try requests()
        while seen.count < count && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            seen = try requests()
        }
        return seen
    }

    /// Every request the server has finished with (or is hanging on), in the order it logged
    /// them: a request is logged just before its answer is sent. `GET /v1/models` is logged
    /// too (`method` "GET", answer "models").
    public func requests() throws -> [StubChatRequest] {
        guard let text = try? String(contentsOf: logURL, encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(StubChatRequest.self, from: Data($0.utf8)) }
    }

    /// The `POST …/chat/completions` requests alone.
    public func completions() throws -> [StubChatRequest] {
        try requests().filter(\.isCompletion)
    }
}

/// One request as the chat stub saw it. The request's own fields are as it sent them; one of
/// the wrong type (a request that broke the contract) reads as nil here, and `problems` says why.
public struct StubChatRequest: Decodable, Sendable {
    public let method: String
    public let path: String
    public let receivedAt: Double
    /// When the answer went out; nil for `hang` (never answered).
    public let respondedAt: Double?
    /// The client's port: requests on one kept-alive connection share it.
    public let connection: Int
    public let model: String?
    public let messages: [Message]?
    /// The request's `response_format`, as sent.
    public let responseFormat: JSONValue?
    /// The form of `response_format` it used: "json_object", "json_schema" or "none".
    public let schemaForm: String?
    public let maxTokens: Int?
    public let temperature: Double?
    public let stream: Bool?
    /// Every way the request broke the API's contract; empty for a good request.
    public let problems: [String]
    public let authorizationOk: Bool?
    /// The names of the request's headers, as the server parsed them.
    public let headerNames: [String]?
    /// What the server answered: a behaviour's kind ("reflect", "says", "length", "reset",
    /// "hang", "slow", "body"), "models" for GET /v1/models, or an HTTP status ("429", "500").
    public let answer: String
    /// For an embeddings request: the texts it asked vectors for.
    public let inputs: [String]?
    /// The stub's estimate of the prompt's tokens: its messages' characters / 4, rounded up, at least 1.
    public let promptTokens: Int?
    /// The same estimate of the answer's content, for answers with content; nil otherwise.
    public let completionTokens: Int?
    /// The content answered (reflect, says, length, slow); nil for other answers.
    public let content: String?

    public struct Message: Decodable, Sendable, Equatable {
        public let role: String
        public let content: String
    }

    /// Whether this was a `POST …/chat/completions`.
    public var isCompletion: Bool { method == "POST" && path.hasSuffix("/chat/completions") }

    /// The content of the last user message.
    public var lastUserContent: String? { messages?.last(where: { $0.role == "user" })?.content }

    enum CodingKeys: String, CodingKey {
        case method, path, receivedAt = "received_at", respondedAt = "responded_at", connection, model, messages
        case responseFormat = "response_format", schemaForm = "schema_form", maxTokens = "max_tokens"
        case temperature, stream, problems, authorizationOk = "authorization_ok", headerNames = "header_names"
        case answer, promptTokens = "prompt_tokens", completionTokens = "completion_tokens", content, inputs
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        receivedAt = try container.decode(Double.self, forKey: .receivedAt)
        respondedAt = try container.decodeIfPresent(Double.self, forKey: .respondedAt)
        connection = try container.decode(Int.self, forKey: .connection)
        // The request's own fields, as sent: a wrong type (a broken request) is nil here.
        model = try? container.decodeIfPresent(String.self, forKey: .model)
        messages = try? container.decodeIfPresent([Message].self, forKey: .messages)
        responseFormat = try container.decodeIfPresent(JSONValue.self, forKey: .responseFormat)
        schemaForm = try container.decodeIfPresent(String.self, forKey: .schemaForm)
        maxTokens = try? container.decodeIfPresent(Int.self, forKey: .maxTokens)
        temperature = try? container.decodeIfPresent(Double.self, forKey: .temperature)
        stream = try? container.decodeIfPresent(Bool.self, forKey: .stream)
        problems = try container.decode([String].self, forKey: .problems)
        authorizationOk = try container.decodeIfPresent(Bool.self, forKey: .authorizationOk)
        headerNames = try container.decodeIfPresent([String].self, forKey: .headerNames)
        answer = try container.decode(String.self, forKey: .answer)
        promptTokens = try container.decodeIfPresent(Int.self, forKey: .promptTokens)
        completionTokens = try container.decodeIfPresent(Int.self, forKey: .completionTokens)
        content = try container.decodeIfPresent(String.self, forKey: .content)
        inputs = try? container.decodeIfPresent([String].self, forKey: .inputs)
    }
}
