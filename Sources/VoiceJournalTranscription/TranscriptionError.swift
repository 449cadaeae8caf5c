import Foundation

/// Why a transcription did not come back, worded for the user, with what the queue should
/// do about it (retry the file, fail the file, or stop the whole run).
///
/// No secret of the configuration appears in it (the API key, the base URL's credentials):
/// server and libcurl messages go through `Secrets.redact` before they are kept.
public struct TranscriptionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unauthorized, quotaExceeded, endpointNotFound, invalidConfiguration
            case badRequest, tooLarge, unreadableFile
            case rateLimited, serverError, timeout, connection, unreachable, noAnswer, malformedResponse
            case emptyAnswer, cancelled
        }
        private let code: Code

        /// 401/403: the key is missing, wrong or not allowed. Stops the run.
        public static let unauthorized = Kind(code: .unauthorized)
        /// 429 `insufficient_quota`: the account has no credit left. Stops the run.
        public static let quotaExceeded = Kind(code: .quotaExceeded)
        /// 404: the base URL does not lead to a transcription endpoint (or the model is unknown). Stops the run.
        public static let endpointNotFound = Kind(code: .endpointNotFound)
        /// The base URL or client set-up cannot work at all. Stops the run.
        public static let invalidConfiguration = Kind(code: .invalidConfiguration)
        /// 400 (and other 4xx): the server rejected this file. Fails the file.
        public static let badRequest = Kind(code: .badRequest)
        /// 413: the file is over the upload limit. Fails the file.
        public static let tooLarge = Kind(code: .tooLarge)
        /// The audio file could not be read from disk. Fails the file.
        public static let unreadableFile = Kind(code: .unreadableFile)
        /// 429 `rate_limit_exceeded`. Retried.
        public static let rateLimited = Kind(code: .rateLimited)
        /// 408, 409 and 5xx. Retried.
        public static let serverError = Kind(code: .serverError)
        /// No complete answer within the timeout, or the upload stalled. Retried.
        public static let timeout = Kind(code: .timeout)
        /// The connection broke (reset, closed early, TLS failure). Retried.
        public static let connection = Kind(code: .connection)
        /// The server could not be reached (refused, unknown host, connect timeout). Not the
        /// file's fault: the queue pauses the whole run, tries again with backoff, and stops
        /// as a configuration error when the server stays out of reach.
        public static let unreachable = Kind(code: .unreachable)
        /// The server took the whole upload and did not answer within the answer's deadline
        /// (it hangs, or is wedged). Like `unreachable`, not the file's fault: the server is
        /// taken out and probed, and the job goes back without spending an attempt.
        public static let noAnswer = Kind(code: .noAnswer)
        /// A success with no text for audio that holds speech: a server that answers
        /// everything with nothing. Counted against the server, and retried while another
        /// server of the pool may take it.
        public static let emptyAnswer = Kind(code: .emptyAnswer)
        /// A success status with a body that is not the expected JSON. Retried.
        public static let malformedResponse = Kind(code: .malformedResponse)
        /// The transfer was stopped on purpose (the run is ending).
        public static let cancelled = Kind(code: .cancelled)

        public var description: String { code.rawValue }
    }

    /// What the queue does with a job that failed this way.
    public enum Disposition: Sendable, Equatable {
        /// Try the same file again later (backoff).
        case retry
        /// Give up on this file; the rest of the run goes on.
        case failFile
        /// Stop the whole run now: every other file would fail the same way.
        case stopRun
    }

    public let kind: Kind
    /// The HTTP status, when a response arrived.
    public let status: Int?
    /// The server's own message (from `error.message`), redacted.
    public let serverMessage: String?
    /// How long the server asked us to wait (`retry-after-ms` or `retry-after`), in seconds.
    public let retryAfter: Double?
    /// With `unreachable`: the connection was refused by this machine (a loopback address),
    /// so no server runs there at all. Not a busy server: it is not waited for.
    public let nothingListens: Bool
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(kind: Kind, status: Int? = nil, serverMessage: String? = nil, retryAfter: Double? = nil,
                nothingListens: Bool = false, description: String) {
        self.kind = kind
        self.status = status
        self.serverMessage = serverMessage
        self.retryAfter = retryAfter
        self.nothingListens = nothingListens
        self.description = description
    }

    /// What the queue does about it: retry, fail the file, or stop the run.
    public var disposition: Disposition {
        switch kind {
        case .unauthorized, .quotaExceeded, .endpointNotFound, .invalidConfiguration, .cancelled: .stopRun
        case .badRequest, .tooLarge, .unreadableFile: .failFile
        default: .retry
        }
    }
}

extension TranscriptionError {
    /// Classifies an HTTP error response the way the README's table promises (retry, fail the file, or stop).
    /// `secrets` are taken out of the server's words (a server may echo the key it was sent).
    static func http(status: Int, body: Data, retryAfter: Double?, secrets: Secrets) -> TranscriptionError {
        let decoded = WireFormat.decodeError(body)
        let raw = decoded?.message ?? String(decoding: body.prefix(300), as: UTF8.self)
        let message = secrets.redact(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        let said = message.isEmpty ? "" : ": \(message)"
        let code = decoded?.code ?? decoded?.type
        switch status {
        case 401, 403:
            return TranscriptionError(
                kind: .unauthorized, status: status, serverMessage: message,
                description: "the server refused the API key (HTTP \(status)\(said)); set OPENAI_API_KEY to a valid key")
        case 429 where code == "insufficient_quota":
            return TranscriptionError(
                kind: .quotaExceeded, status: status, serverMessage: message,
                description: "the account's quota is used up (HTTP 429 insufficient_quota\(said)); check the plan and billing, then run `voicejournal queue run`")
        case 429:
            return TranscriptionError(
                kind: .rateLimited, status: status, serverMessage: message, retryAfter: retryAfter,
                description: "rate limited (HTTP 429\(said))")
        case 404:
            return TranscriptionError(
                kind: .endpointNotFound, status: status, serverMessage: message,
                description: "the server has no such transcription endpoint or model (HTTP 404\(said)); check --base-url / OPENAI_BASE_URL and --model")
        case 413:
            return TranscriptionError(
                kind: .tooLarge, status: status, serverMessage: message,
                description: "the file is over the server's upload limit (HTTP 413\(said)); OpenAI takes at most 25 MB per file: split or compress it")
        case 408, 409, 500...599:
            return TranscriptionError(
                kind: .serverError, status: status, serverMessage: message, retryAfter: retryAfter,
                description: "the server had a problem (HTTP \(status)\(said))")
        default:
            return TranscriptionError(
                kind: .badRequest, status: status, serverMessage: message,
                description: message.isEmpty ? "the server rejected the file (HTTP \(status))" : "the server rejected the file (HTTP \(status)): \(message)")
        }
    }
}
