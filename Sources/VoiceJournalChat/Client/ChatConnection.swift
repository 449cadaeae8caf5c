import VoiceJournalCCurl
import VoiceJournalTranscription
import Foundation
import Logging
import Synchronization

/// One line to a chat server: a curl handle kept between requests so its connection is
/// reused. Blocking: call `complete` from a thread of its own, never the cooperative pool.
///
/// Not Sendable: a connection belongs to the thread that made it.
public final class ChatConnection {
    public let endpoint: ChatEndpoint
    let easy: CurlEasy
    let abort: AbortSignal
    let logger: Logger
    /// The schema form this server took or asked for, once known.
    let learned: LearnedForm

    /// A connection to `endpoint`; `abort` stops a request in flight when raised; `learned`
    /// shares what one connection learned of the server's schema form with the others.
    public init(endpoint: ChatEndpoint, abort: AbortSignal = AbortSignal(), learned: LearnedForm = LearnedForm(),
                logger: Logger) throws(ChatError) {
        self.endpoint = endpoint
        self.abort = abort
        self.logger = logger
        self.learned = learned
        do {
            easy = try CurlEasy()
        } catch {
            throw ChatError(kind: .invalidConfiguration, description: "libcurl could not start: \(error)")
        }
    }

    /// The schema form a server takes, learned once and shared by every connection to it.
    public final class LearnedForm: Sendable {
        private let form = Mutex<ChatEndpoint.SchemaForm?>(nil)
        public init() {}
        public var value: ChatEndpoint.SchemaForm? { form.withLock { $0 } }
        func learn(_ value: ChatEndpoint.SchemaForm) { form.withLock { $0 = value } }
    }

    /// Sends `request` and returns the server's answer, unchecked. A server that refuses the
    /// schema's form is asked once more in the other form, and the form it took is kept.
    public func complete(_ request: ChatRequest) throws(ChatError) -> ChatAnswer {
        let first = learned.value ?? endpoint.firstSchemaForm
        do {
            return try send(request, form: first)
        } catch where error.kind == .schemaFormRefused && request.schema != nil && endpoint.schemaForm == nil {
            let other: ChatEndpoint.SchemaForm = first == .jsonObject ? .jsonSchema : .jsonObject
            logger.debug("chat schema form refused; trying the other", metadata: ["refused": "\(first.rawValue)"])
            let answer = try send(request, form: other)
            learned.learn(other)
            return answer
        }
    }

    private func send(_ request: ChatRequest, form: ChatEndpoint.SchemaForm) throws(ChatError) -> ChatAnswer {
        let body = Data(request.body(model: endpoint.model, form: form).compactText.utf8)
        let transfer = Transfer(abort: abort, lowSpeedLimit: 1, lowSpeedTime: 60, answerDeadline: endpoint.answerTimeout)
        let (seconds, failure) = try post(body, transfer: transfer, accept: "application/json")
        if let failure { throw classify(failure, transfer: transfer) }
        let status = easy.responseCode
        logger.debug("chat answered", metadata: ["status": "\(status)", "seconds": "\(seconds)", "form": "\(form.rawValue)"])
        guard (200..<300).contains(status) else {
            throw ChatError.http(status: status, body: transfer.body, retryAfter: RetryPolicy.serverWait(headers: transfer.headers),
                                 redact: endpoint.redact, keyHint: keyHint)
        }
        guard let answer = ChatAnswer.decode(transfer.body, request: request, seconds: seconds, form: request.schema == nil ? nil : form) else {
            let preview = ChatText.oneLine(endpoint.redact(String(decoding: transfer.body.prefix(80), as: UTF8.self)), limit: 80)
            throw ChatError(kind: .malformedResponse, status: status,
                            description: "the chat server's answer was not a chat completion (HTTP \(status), starts \(preview.debugDescription))")
        }
        return answer
    }

    /// POSTs `body` to `url` (the completions URL unless named), the answer into `transfer`; returns the seconds it
    /// took and libcurl's failure, if any (the caller decides what a failure means).
    func post(_ body: Data, transfer: Transfer, accept: String, url: String? = nil) throws(ChatError) -> (seconds: Double, failure: CurlFailure?) {
        var headers = ["Content-Type: application/json", "Accept: \(accept)"]
        if let key = endpoint.apiKey {
            guard WhisperClient.Configuration.isUsableKey(key) else {
                throw ChatError(kind: .invalidConfiguration, description: "the chat API key holds characters a header cannot carry")
            }
            headers.append("Authorization: Bearer \(key)")
        }
        let started = ProcessInfo.processInfo.systemUptime
        var failure: CurlFailure?
        do {
            let headerList = try CurlHeaderList(headers)
            try configure(transfer: transfer, headers: headerList, bodySize: body.count, url: url ?? endpoint.completionsURL)
            // libcurl reads the body from this buffer while sending (CURLOPT_POSTFIELDS is not copied).
            body.withUnsafeBytes { bytes in
                do {
                    try easy.set(CURLOPT_POSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    try withExtendedLifetime((headerList, transfer)) { try easy.perform() }
                } catch {
                    failure = error as? CurlFailure
                }
            }
        } catch {
            throw ChatError(kind: .invalidConfiguration, description: "could not set up the request: \(endpoint.redact(String(describing: error)))")
        }
        return (ProcessInfo.processInfo.systemUptime - started, failure)
    }

    var keyHint: String {
        "set \(endpoint.keyVariable ?? "VOICEJOURNAL_CHAT_API_KEY") to a valid key"
    }

    /// Made once, on the first request (libcurl is loaded by then).
    static let userAgent = "voicejournal/0.1 (\(String(cString: ccurl_version())))"

    func configure(transfer: Transfer, headers: CurlHeaderList, bodySize: Int, url: String) throws {
        try easy.prepare(url: url, connectTimeout: endpoint.connectTimeout, timeout: endpoint.timeout,
                         userAgent: Self.userAgent, headers: headers, transfer: transfer)
        try easy.set(CURLOPT_POST, 1)
        try easy.set(CURLOPT_POSTFIELDSIZE, bodySize)
    }

    func classify(_ failure: CurlFailure, transfer: Transfer) -> ChatError {
        let detail = endpoint.redact(failure.description)
        let base = endpoint.shownBaseURL
        switch failure.code {
        case CURLE_ABORTED_BY_CALLBACK where transfer.answerLate:
            return ChatError(kind: .noAnswer, description: "\(base) took the request but did not answer within \(Int(endpoint.answerTimeout)) s")
        case _ where transfer.bodyTooLarge:
            return ChatError(kind: .malformedResponse, description: "the chat server's answer was larger than \(Transfer.bodyLimit) bytes")
        case CURLE_ABORTED_BY_CALLBACK:
            return ChatError(kind: .cancelled, description: "the request was stopped")
        case CURLE_COULDNT_CONNECT where failure.osErrno == ECONNREFUSED && endpoint.isLoopback:
            return ChatError(kind: .unreachable, nothingListens: true, description:
                "the connection to \(base) was refused: no server runs there; start the local one with voicejournal-chat-server "
                + "(or systemctl --user start voicejournal-chat.service), or check \(endpoint.origin)")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return ChatError(kind: .unreachable, description: "cannot reach \(base) (\(detail)); check the network and \(endpoint.origin)")
        case CURLE_OPERATION_TIMEDOUT:
            return ChatError(kind: .timeout, description: "no answer from \(base) within \(Int(endpoint.timeout)) s (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_PEER_FAILED_VERIFICATION:
            return ChatError(kind: .invalidConfiguration, description: "cannot use \(base) (\(detail)); check \(endpoint.origin)")
        default:
            return ChatError(kind: .connection, description: "the connection to \(base) failed (\(detail))")
        }
    }
}
