import Foundation
import Testing
@testable import VoiceJournalChat

/// The chat API as it goes over the wire: both ways of giving a schema, the errors servers
/// send and what is done about each.
struct ChatWireTests {
    @Test func theSchemaGoesInTheFormTheServerTakes() {
        let request = ChatRequest(messages: [.user("hi")], schema: ["type": "object"], schemaName: "reflection")
        let openAI = request.body(model: "gpt-4o-mini", form: .jsonSchema)
        #expect(openAI["response_format"]?["type"] == "json_schema")
        #expect(openAI["response_format"]?["json_schema"]?["name"] == "reflection")
        #expect(openAI["response_format"]?["json_schema"]?["strict"] == true)
        let llama = request.body(model: "local", form: .jsonObject)
        #expect(llama["response_format"]?["type"] == "json_object")
        #expect(llama["response_format"]?["schema"]?["type"] == "object")
        #expect(llama["model"] == "local")
    }

    @Test func aLoopbackServerIsAskedTheLlamaWayFirstAndCostsNothing() throws {
        let local = try ChatEndpoint.resolve(baseURL: "http://127.0.0.1:8179/v1", model: "m", keyVariable: nil, environment: [:], origin: "test")
        #expect(local.firstSchemaForm == .jsonObject && local.cost(inputTokens: 1000, outputTokens: 1000) == 0)
        var remote = try ChatEndpoint.resolve(baseURL: "https://api.example.com/v1", model: "m", keyVariable: "K", environment: ["K": "sk-1234"], origin: "test")
        #expect(remote.firstSchemaForm == .jsonSchema && remote.cost(inputTokens: 1000, outputTokens: 1000) == nil)
        remote.pricePerMillion = (0.15, 0.6)
        #expect(abs((remote.cost(inputTokens: 1_000_000, outputTokens: 500_000) ?? 0) - 0.45) < 1e-9)
        #expect(throws: ChatError.self) {
            try ChatEndpoint.resolve(baseURL: "https://api.example.com/v1", model: "m", keyVariable: "K", environment: [:], origin: "test")
        }
    }

    @Test(arguments: [
        (400, #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}"#, "contextTooLong"),
        (400, #"{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#, "contextTooLong"),
        (500, #"{"error":{"message":"1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object' 'input': 'json_schema'","type":"internal_server_error"}}"#, "schemaFormRefused"),
        (400, #"{"error":{"message":"Unrecognized request argument supplied: schema","type":"invalid_request_error"}}"#, "schemaFormRefused"),
        (401, #"{"error":{"message":"bad key sk-secret-1234"}}"#, "unauthorized"),
        (429, #"{"error":{"message":"slow down","code":"rate_limit_exceeded"}}"#, "rateLimited"),
        (429, #"{"error":{"message":"no money","code":"insufficient_quota"}}"#, "quotaExceeded"),
        (503, "busy", "serverError"),
        (404, "{}", "endpointNotFound"),
        (400, #"{"error":{"message":"bad messages"}}"#, "badRequest"),
    ] as [(Int, String, String)])
    func eachErrorIsClassified(status: Int, body: String, kind: String) {
        let error = ChatError.http(status: status, body: Data(body.utf8), retryAfter: nil,
                                   redact: { $0.replacingOccurrences(of: "sk-secret-1234", with: "[redacted]") }, keyHint: "set K")
        #expect(error.kind.description == kind)
        #expect(!error.description.contains("sk-secret-1234"))
    }

    @Test func dispositionsFollowTheTranscriptionQueuesRules() {
        #expect(ChatError(kind: .rateLimited, description: "").disposition == .retry)
        #expect(ChatError(kind: .noAnswer, description: "").disposition == .retry)
        #expect(ChatError(kind: .unauthorized, description: "").disposition == .stopRun)
        #expect(ChatError(kind: .badRequest, description: "").disposition == .giveUp)
    }

    @Test func anAnswerIsReadWithItsUsageOrAnEstimate() throws {
        let request = ChatRequest(messages: [.user(String(repeating: "word ", count: 40))])
        let body = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":52,"completion_tokens":2}}"#
        let answer = try #require(ChatAnswer.decode(Data(body.utf8), request: request, seconds: 0.5, form: .jsonObject))
        #expect(answer.content == "{}" && answer.inputTokens == 52 && answer.outputTokens == 2 && answer.usageReported)
        let bare = try #require(ChatAnswer.decode(Data(#"{"choices":[{"message":{"content":"hello there"}}]}"#.utf8), request: request, seconds: 0.5, form: nil))
        #expect(!bare.usageReported && bare.inputTokens == request.estimatedTokens && bare.outputTokens == 3)
        #expect(ChatAnswer.decode(Data("not json".utf8), request: request, seconds: 0, form: nil) == nil)
    }

    @Test func modelAndServerTextIsOneSafeLine() {
        #expect(ChatText.oneLine("a\u{1B}[2J\nb\t\u{202E}c", limit: 100) == "a [2J b c")
        #expect(ChatText.oneLine(String(repeating: "x", count: 20), limit: 10) == "xxxxxxxxx…")
    }
}
