import Foundation
import VoiceJournalCCurl
import VoiceJournalTranscription

extension ChatConnection {
    /// Sends `request` as a streamed completion (`"stream": true`) and hands each piece of the
    /// answer's text to `onText` as it arrives, on this thread. Returns the whole answer; one
    /// cut short after text had come (the connection broke, the server went away, the answer
    /// deadline passed between pieces) is returned with what arrived and `incomplete` saying
    /// why, rather than thrown. Errors before any text are thrown as `complete`'s are.
    ///
    /// The tokens are the server's when it sends a usage chunk (asked for with OpenAI's
    /// `stream_options`; llama.cpp's server sends none), else estimated.
    public func stream(_ request: ChatRequest, onText: (String) -> Void) throws(ChatError) -> ChatAnswer {
        var fields: [String: JSONValue] = [:]
        if case .object(let body) = request.body(model: endpoint.model, form: learned.value ?? endpoint.firstSchemaForm) { fields = body }
        fields["stream"] = true
        // OpenAI sends the usage as a last chunk only when asked; llama.cpp's server has none to send.
        if !endpoint.isLoopback { fields["stream_options"] = ["include_usage": true] }
        let body = Data(JSONValue.object(fields).compactText.utf8)
        let transfer = Transfer(abort: abort, lowSpeedLimit: 1, lowSpeedTime: 60, answerDeadline: endpoint.answerTimeout)
        let state = StreamState()
        let started = ProcessInfo.processInfo.systemUptime
        let (seconds, failure) = try withoutActuallyEscaping(onText) { onText throws(ChatError) in
            transfer.receive = { piece in
                // An error's body (not 2xx) is read whole afterwards, never as events.
                guard (200..<300).contains(transfer.status) else { return true }
                for event in state.events.feed(piece) { state.read(event, onText: onText, started: started) }
                return !state.events.overflowed
            }
            defer { transfer.receive = nil }
            return try post(body, transfer: transfer, accept: "text/event-stream")
        }
        let status = transfer.status == 0 ? easy.responseCode : transfer.status
        if let failure {
            let error = classify(failure, transfer: transfer)
            guard !state.content.isEmpty else { throw error }
            return state.answer(request: request, seconds: seconds,
                                incomplete: error.kind == .cancelled ? "stopped before the end (Ctrl-C)" : error.description)
        }
        guard (200..<300).contains(status) else {
            throw ChatError.http(status: status, body: transfer.body, retryAfter: RetryPolicy.serverWait(headers: transfer.headers),
                                 redact: endpoint.redact, keyHint: keyHint)
        }
        if let last = state.events.finish() { state.read(last, onText: { _ in }, started: started) }
        if !state.sawEvent {
            // Not a stream: a server that ignores "stream" and answers with one completion.
            if let whole = ChatAnswer.decode(transfer.body, request: request, seconds: seconds, form: nil) {
                onText(whole.content)
                return whole
            }
            let preview = ChatText.oneLine(endpoint.redact(String(decoding: transfer.body.prefix(80), as: UTF8.self)), limit: 80)
            throw ChatError(kind: .malformedResponse, status: status,
                            description: "the chat server's answer was not a stream of chat completion chunks (HTTP \(status), starts \(preview.debugDescription))")
        }
        if state.events.overflowed {
            return state.answer(request: request, seconds: seconds, incomplete: "the chat server sent an event larger than \(state.events.limit) bytes")
        }
        let whole = state.done || state.finishReason != nil
        return state.answer(request: request, seconds: seconds,
                            incomplete: whole ? nil : "the chat server's stream ended before the answer was complete")
    }
}

/// What a stream has brought so far. Used on the thread of one request only.
private final class StreamState {
    var events = ServerSentEvents()
    var content = ""
    var finishReason: String?
    var inputTokens: Int?
    var outputTokens: Int?
    var firstTextAt: Double?
    var done = false
    var sawEvent = false

    /// One event: `[DONE]`, or a chunk with a piece of text, a finish reason or the usage.
    func read(_ event: String, onText: (String) -> Void, started: Double) {
        sawEvent = true
        if event.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            done = true
            return
        }
        guard let chunk = JSONValue.parse(Data(event.utf8)) else { return }
        if let usage = chunk["usage"], case .object = usage {
            inputTokens = usage["prompt_tokens"]?.integerValue ?? inputTokens
            outputTokens = usage["completion_tokens"]?.integerValue ?? outputTokens
        }
        guard let choice = chunk["choices"]?.arrayValue?.first else { return }
        if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
        if let piece = choice["delta"]?["content"]?.stringValue, !piece.isEmpty {
            if firstTextAt == nil { firstTextAt = ProcessInfo.processInfo.systemUptime - started }
            content += piece
            onText(piece)
        }
    }

    func answer(request: ChatRequest, seconds: Double, incomplete: String?) -> ChatAnswer {
        ChatAnswer(content: content, finishReason: finishReason, inputTokens: max(0, inputTokens ?? request.estimatedTokens),
                   outputTokens: max(0, outputTokens ?? (content.utf8.count + 3) / 4),
                   usageReported: inputTokens != nil && outputTokens != nil, seconds: seconds, schemaForm: nil,
                   firstTextSeconds: firstTextAt, incomplete: incomplete)
    }
}
