import Foundation

/// Why a chat request did not come back with an answer, worded for the user, with what to
/// do about it — retry, give up on this one request, or stop — decided in one switch, as
/// for transcriptions. No secret (the key, a URL's credentials) appears in it.
public struct ChatError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unauthorized, quotaExceeded, endpointNotFound, invalidConfiguration
            case badRequest, contextTooLong, schemaFormRefused
            case rateLimited, serverError, timeout, connection, unreachable, noAnswer, malformedResponse, cancelled
        }
        private let code: Code

        /// 401/403: the key is missing, wrong or not allowed. Stops the run.
        public static let unauthorized = Kind(code: .unauthorized)
        /// 429 `insufficient_quota`: no credit left. Stops the run.
        public static let quotaExceeded = Kind(code: .quotaExceeded)
        /// 404: no chat endpoint there, or no such model. Stops the run.
        public static let endpointNotFound = Kind(code: .endpointNotFound)
        /// The base URL, key or client set-up cannot work at all. Stops the run.
        public static let invalidConfiguration = Kind(code: .invalidConfiguration)
        /// 400 (and other 4xx): the server refused this request. Fails this one.
        public static let badRequest = Kind(code: .badRequest)
        /// The messages are longer than the model's context (llama.cpp's
        /// `exceed_context_size_error`, OpenAI's `context_length_exceeded`): sent shorter, not again as they are.
        public static let contextTooLong = Kind(code: .contextTooLong)
        /// The server refused the way the answer's schema was given (llama.cpp's server
        /// answers OpenAI's `json_schema` form with HTTP 500): sent again in the other form.
        public static let schemaFormRefused = Kind(code: .schemaFormRefused)
        /// 429 `rate_limit_exceeded`. Retried.
        public static let rateLimited = Kind(code: .rateLimited)
        /// 408, 409 and 5xx. Retried.
        public static let serverError = Kind(code: .serverError)
        /// No complete answer within the timeout. Retried.
        public static let timeout = Kind(code: .timeout)
        /// The connection broke. Retried.
        public static let connection = Kind(code: .connection)
        /// The server could not be reached (refused, unknown host). Retried with patience, then stops.
        public static let unreachable = Kind(code: .unreachable)
        /// The server took the request and said nothing within the answer's deadline. Retried.
        public static let noAnswer = Kind(code: .noAnswer)
        /// A success status whose body is not a chat completion. Retried.
        public static let malformedResponse = Kind(code: .malformedResponse)
        /// Stopped on purpose (the run is ending).
        public static let cancelled = Kind(code: .cancelled)

        public var description: String { code.rawValue }
    }

    /// What a run does with a request that failed this way.
    public enum Disposition: Sendable, Equatable {
        /// Try again later (backoff, never sooner than the server asked).
        case retry
        /// Give up on this request; the rest goes on.
        case giveUp
        /// Stop: every other request would fail the same way.
        case stopRun
    }

    public let kind: Kind
    /// The HTTP status, when a response arrived.
    public let status: Int?
    /// How long the server asked us to wait (`retry-after-ms` or `retry-after`), in seconds.
    public let retryAfter: Double?
    /// With `unreachable`: refused by this machine, so no server runs there at all.
    public let nothingListens: Bool
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(kind: Kind, status: Int? = nil, retryAfter: Double? = nil, nothingListens: Bool = false, description: String) {
        self.kind = kind
        self.status = status
        self.retryAfter = retryAfter
        self.nothingListens = nothingListens
        self.description = description
    }

    /// What to do about it.
    public var disposition: Disposition {
        switch kind {
        case .unauthorized, .quotaExceeded, .endpointNotFound, .invalidConfiguration, .cancelled: .stopRun
        case .badRequest, .contextTooLong, .schemaFormRefused: .giveUp
        default: .retry
        }
    }
}

extension ChatError {
    /// Classifies an HTTP error response. The server's words are redacted with `secrets`
    /// (a server may echo the key) and cut short: they are shown, never obeyed.
    static func http(status: Int, body: Data, retryAfter: Double?, redact: (String) -> String, keyHint: String) -> ChatError {
        let error = JSONValue.parse(body)?["error"]
        let raw = error?["message"]?.stringValue ?? String(decoding: body.prefix(300), as: UTF8.self)
        let message = ChatText.oneLine(redact(raw), limit: 300)
        let said = message.isEmpty ? "" : ": \(message)"
        let code = error?["code"]?.stringValue, type = error?["type"]?.stringValue
        if Self.isContextError(code: code, type: type, message: raw) {
            return ChatError(kind: .contextTooLong, status: status, description: "the messages are longer than the model's context (HTTP \(status)\(said))")
        }
        if [400, 422, 500].contains(status), Self.isSchemaFormError(raw) {
            return ChatError(kind: .schemaFormRefused, status: status, description: "the server refused the answer's schema in this form (HTTP \(status)\(said))")
        }
        switch status {
        case 401, 403:
            return ChatError(kind: .unauthorized, status: status, description: "the chat server refused the API key (HTTP \(status)\(said)); \(keyHint)")
        case 429 where code == "insufficient_quota" || type == "insufficient_quota":
            return ChatError(kind: .quotaExceeded, status: status, description: "the account's quota is used up (HTTP 429 insufficient_quota\(said)); check the plan and billing")
        case 429:
            return ChatError(kind: .rateLimited, status: status, retryAfter: retryAfter, description: "rate limited (HTTP 429\(said))")
        case 404:
            return ChatError(kind: .endpointNotFound, status: status, description: "the server has no such chat endpoint or model (HTTP 404\(said)); check --chat-url and --chat-model")
        case 408, 409, 500...599:
            return ChatError(kind: .serverError, status: status, retryAfter: retryAfter, description: "the chat server had a problem (HTTP \(status)\(said))")
        default:
            return ChatError(kind: .badRequest, status: status, description: "the chat server refused the request (HTTP \(status)\(said))")
        }
    }

    /// llama.cpp's `exceed_context_size_error`, OpenAI's `context_length_exceeded`, and the
    /// words servers without either use.
    static func isContextError(code: String?, type: String?, message: String) -> Bool {
        if code == "context_length_exceeded" || type == "exceed_context_size_error" || code == "exceed_context_size_error" { return true }
        let lowered = message.lowercased()
        return lowered.contains("maximum context length") || lowered.contains("exceeds the available context")
            || lowered.contains("context window") && lowered.contains("exceed")
    }

    /// A refusal of `response_format` itself: llama-cpp-python's request validation of its
    /// `type` ("Input should be 'text' or 'json_object'"), OpenAI's of a `schema` key.
    static func isSchemaFormError(_ message: String) -> Bool {
        (message.contains("response_format") && (message.contains("json_object") || message.contains("json_schema")))
            || message.contains("Unrecognized request argument supplied: schema")
    }
}
