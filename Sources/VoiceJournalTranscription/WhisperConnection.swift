import VoiceJournalCCurl
import Foundation
import Logging

/// One worker's line to the server: a curl handle kept between uploads so its connection
/// is reused. Blocking: call `transcribe` from a thread of its own, never from the
/// cooperative pool.
///
/// Not Sendable: a connection belongs to the thread that made it.
public final class WhisperConnection {
    private let client: WhisperClient
    private let easy: CurlEasy
    private let abort: AbortSignal

    init(client: WhisperClient, easy: CurlEasy, abort: AbortSignal) {
        self.client = client
        self.easy = easy
        self.abort = abort
    }

    /// Uploads the file (streamed from disk) to the endpoint of the request's task and returns
    /// what the server heard: the transcript, or for a translation its English.
    public func transcribe(_ request: TranscriptionRequest) throws(TranscriptionError) -> TranscriptionResult {
        let configuration = client.configuration
        guard FileManager.default.isReadableFile(atPath: request.file.path) else {
            throw TranscriptionError(kind: .unreadableFile,
                                     description: "cannot read \(request.file.path) (moved or deleted?)")
        }
        let answerDeadline = configuration.answerDeadline(audioSeconds: request.audioSeconds)
        let transfer = Transfer(abort: abort, lowSpeedLimit: configuration.lowSpeedLimit,
                                lowSpeedTime: configuration.lowSpeedTime, answerDeadline: answerDeadline)
        var headers = ["Accept: application/json"]
        if let key = configuration.apiKey {
            // `resolve` refuses such a key; a configuration made directly must not slip one through.
            guard WhisperClient.Configuration.isUsableKey(key) else {
                throw TranscriptionError(kind: .invalidConfiguration, description: "the API key holds characters a header cannot carry")
            }
            headers.append("Authorization: Bearer \(key)")
        }
        let started = ProcessInfo.processInfo.systemUptime
        var failure: CurlFailure?
        do {
            // The mime body and header list must outlive `perform`; both are freed on return.
            let mime = try CurlMime(for: easy)
            try mime.addFile(name: "file", path: request.file.path, filename: request.filename,
                             contentType: request.contentType)
            for field in request.fields { try mime.addField(name: field.name, value: field.value) }
            let headerList = try CurlHeaderList(headers)
            try configure(transfer: transfer, configuration: configuration, url: configuration.endpoint(for: request.task),
                          mime: mime, headers: headerList)
            withExtendedLifetime((mime, headerList, transfer)) {
                do { try easy.perform() } catch { failure = error as? CurlFailure }
            }
        } catch {
            throw TranscriptionError(kind: .invalidConfiguration, description: "could not set up the upload: \(configuration.redact(String(describing: error)))")
        }
        let elapsed = ProcessInfo.processInfo.systemUptime - started

        if let failure {
            let error = classify(failure, transfer: transfer, request: request, configuration: configuration,
                                 answerDeadline: answerDeadline)
            client.logger.debug("upload failed", metadata: [
                "file": "\(request.filename)", "error": "\(error.kind)", "seconds": "\(elapsed)"])
            throw error
        }
        let status = easy.responseCode
        client.logger.debug("upload answered", metadata: [
            "file": "\(request.filename)", "task": "\(request.task.rawValue)", "status": "\(status)", "seconds": "\(elapsed)",
            "request-id": "\(transfer.headers["x-request-id"] ?? "-")"])
        guard (200..<300).contains(status) else {
            throw TranscriptionError.http(status: status, body: transfer.body,
                                          retryAfter: RetryPolicy.serverWait(headers: transfer.headers),
                                          secrets: configuration.secrets)
        }
        do {
            return try WireFormat.decodeResult(transfer.body, format: request.responseFormat,
                                               model: request.options.model, audioSeconds: request.audioSeconds)
        } catch {
            let preview = configuration.redact(String(decoding: transfer.body.prefix(80), as: UTF8.self))
            throw TranscriptionError(kind: .malformedResponse, status: status,
                                     description: "the server's answer was not the expected JSON (HTTP \(status), starts \(preview.debugDescription))")
        }
    }

    /// Made once, on the first upload (libcurl is loaded by then: the connection has a handle).
    private static let userAgent = "voicejournal/0.1 (\(String(cString: ccurl_version())))"

    private func configure(transfer: Transfer, configuration: WhisperClient.Configuration, url: String,
                           mime: CurlMime, headers: CurlHeaderList) throws {
        try easy.prepare(url: url, connectTimeout: configuration.connectTimeout, timeout: configuration.timeout,
                         userAgent: Self.userAgent, headers: headers, transfer: transfer)
        try easy.set(mime: mime)
    }

    /// Whether a new connection to the server can be made now (connect and TLS only, no
    /// request): after an upload's connection broke it tells a server that went away (the
    /// process died, the machine is off) from one that dropped this one request.
    public func canConnect() -> Bool {
        let configuration = client.configuration
        do {
            let probe = try CurlEasy()
            try probe.set(CURLOPT_URL, configuration.endpoint)
            try probe.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try probe.set(CURLOPT_NOSIGNAL, 1)
            try probe.set(CURLOPT_CONNECT_ONLY, 1)
            try probe.set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(configuration.connectTimeout, 3) * 1000))
            try probe.perform()
            return true
        } catch {
            return false
        }
    }

    private func classify(_ failure: CurlFailure, transfer: Transfer, request: TranscriptionRequest,
                          configuration: WhisperClient.Configuration, answerDeadline: Double?) -> TranscriptionError {
        let detail = configuration.redact(failure.description)
        let baseURL = configuration.shownBaseURL
        switch failure.code {
        case CURLE_ABORTED_BY_CALLBACK where transfer.answerLate:
            return TranscriptionError(kind: .noAnswer, description:
                "\(baseURL) took the upload but did not answer within \(Self.seconds(answerDeadline ?? configuration.timeout)) s")
        case CURLE_ABORTED_BY_CALLBACK where transfer.stalled:
            return TranscriptionError(kind: .timeout, description:
                "the upload stalled (under \(configuration.lowSpeedLimit) bytes/s for \(Int(configuration.lowSpeedTime)) s)")
        case _ where transfer.bodyTooLarge:
            return TranscriptionError(kind: .malformedResponse, description: "the server's answer was larger than \(Transfer.bodyLimit) bytes")
        case CURLE_ABORTED_BY_CALLBACK:
            return TranscriptionError(kind: .cancelled, description: "the upload was stopped")
        case CURLE_COULDNT_CONNECT where failure.osErrno == ECONNREFUSED && configuration.isLoopback:
            // Refused on this machine: no server runs there, none is merely busy.
            return TranscriptionError(kind: .unreachable, nothingListens: true, description:
                "the connection to \(baseURL) was refused: no server runs there; start the local one with voicejournal-whisper-server "
                + "(or systemctl --user start voicejournal-whisper.service), or check \(configuration.origin)")
        // (The `where` applies to the timeout alone.)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
             CURLE_OPERATION_TIMEDOUT where Self.neverConnected(failure):
            return TranscriptionError(kind: .unreachable, description:
                "cannot reach \(baseURL) (\(detail)); check the network and \(configuration.origin)")
        case CURLE_OPERATION_TIMEDOUT:
            return TranscriptionError(kind: .timeout, description:
                "no answer from \(baseURL) within \(Self.seconds(configuration.timeout)) s (\(detail))")
        case CURLE_READ_ERROR:
            return TranscriptionError(kind: .unreadableFile, description: "cannot read \(request.file.path) while uploading it (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_PEER_FAILED_VERIFICATION:
            return TranscriptionError(kind: .invalidConfiguration, description:
                "cannot use \(baseURL) (\(detail)); check \(configuration.origin)")
        default:
            return TranscriptionError(kind: .connection, description: "the connection to \(baseURL) failed (\(detail))")
        }
    }

    /// A timeout before any connection was made (libcurl's words for the connect and
    /// resolve phases): the server is out of reach, not slow.
    private static func neverConnected(_ failure: CurlFailure) -> Bool {
        failure.detail.hasPrefix("Connection timed out") || failure.detail.hasPrefix("Resolving timed out")
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
