import Foundation
import Testing
import VoiceJournalTestSupport

/// The chat stub (Tests/Servers/chat_stub.py through `StubChatServer`) does what it says, over
/// real HTTP with curl: its default answer follows the request's schema in either form, it
/// refuses the form a server would, walks a rule's responses in order, gives the context error
/// past its limit, logs a request it never answers, and records a broken request's problems.
@Suite(.onTestThreads) struct StubChatServerTests {
    /// What curl got: the status, the headers (names lowercased) and the body.
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
        /// choices[0].message.content of a completion.
        var content: String? {
            let choices = json["choices"] as? [[String: Any]]
            return (choices?.first?["message"] as? [String: Any])?["content"] as? String
        }
        var finishReason: String? { (json["choices"] as? [[String: Any]])?.first?["finish_reason"] as? String }
    }

    /// POSTs `body` to the stub's chat completions; curl's own failure (a timeout) throws.
    static func post(_ server: StubChatServer, _ body: String, headers: [String] = ["Content-Type: application/json"],
                     maxTime: Double = 5) throws -> Reply {
        var arguments = ["-sS", "-i", "--max-time", String(maxTime), "--data-binary", body]
        for header in headers { arguments += ["-H", header] }
        let output = try runTool("curl", arguments + [server.baseURL + "/chat/completions"])
        return parse(output)
    }

    static func parse(_ output: String) -> Reply {
        let parts = output.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// A request with one user message saying `text`, and `extra` members (JSON-encoded).
    static func request(_ text: String, model: String? = "stub-chat", extra: [String: Any] = [:]) throws -> String {
        var object: [String: Any] = ["messages": [["role": "system", "content": "You reflect."],
                                                  ["role": "user", "content": text]]]
        if let model { object["model"] = model }
        object.merge(extra) { $1 }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static var schema: [String: Any] { [
        "type": "object", "additionalProperties": false,
        "properties": [
            "summary": ["type": "string", "maxLength": 6],
            "mood": ["type": "string", "enum": ["calm", "tense", "glad"]],
            "energy": ["type": "integer", "minimum": 1, "maximum": 5],
            "highlights": ["type": "array", "items": ["type": "integer", "minimum": 1]],
            "themes": ["type": "array", "items": ["type": "string", "enum": ["work", "family"]]],
            "questions": ["type": "array", "minItems": 2, "items": ["type": "string"]],
            "note": ["type": "string"],
        ],
        "required": ["summary", "mood", "energy", "highlights", "themes", "questions"],
    ] }
    static var jsonObjectForm: [String: Any] { ["type": "json_object", "schema": schema] }
    static var jsonSchemaForm: [String: Any] {
        ["type": "json_schema", "json_schema": ["name": "reflection", "schema": schema, "strict": true]]
    }

    @Test func theDefaultAnswerFollowsTheSchemaInEitherForm() throws {
        let server = try StubChatServer()
        for form in [Self.jsonObjectForm, Self.jsonSchemaForm] {
            let reply = try Self.post(server, try Self.request("Today I walked.", extra: ["response_format": form, "temperature": 0.2]))
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.json["object"] as? String == "chat.completion")
            #expect((reply.json["id"] as? String)?.hasPrefix("chatcmpl-") == true)
            #expect(reply.finishReason == "stop")
            let content = try #require(reply.content)
            let reflection = try #require(try JSONSerialization.jsonObject(with: Data(content.utf8)) as? [String: Any])
            #expect(Set(reflection.keys) == ["summary", "mood", "energy", "highlights", "themes", "questions"], "\(content)")
            #expect(reflection["summary"] as? String == "stub s", "cut to maxLength: \(content)")
            #expect(reflection["mood"] as? String == "calm")
            #expect(reflection["energy"] as? Int == 1)
            #expect(reflection["highlights"] as? [Int] == [1])
            #expect((reflection["themes"] as? [String])?.isEmpty == true)
            #expect((reflection["questions"] as? [String])?.count == 2)
            let usage = try #require(reply.json["usage"] as? [String: Int])
            // "You reflect." and "Today I walked." are 27 characters: 7 tokens; the answer's tokens
            // are its characters over four.
            #expect(usage["prompt_tokens"] == 7)
            #expect(usage["completion_tokens"] == (content.count + 3) / 4)
            #expect(usage["total_tokens"] == 7 + (content.count + 3) / 4)
        }
        let plain = try Self.post(server, try Self.request("No schema."))
        #expect(plain.content == #"{"summary": "stub"}"#)

        let models = try runTool("curl", ["-sS", server.baseURL + "/models"])
        #expect(models.contains(#""id": "stub-chat""#), "\(models)")

        let logged = try server.completions()
        #expect(logged.map(\.schemaForm) == ["json_object", "json_schema", "none"])
        #expect(logged.allSatisfy { $0.problems.isEmpty && $0.answer == "reflect" && $0.authorizationOk == true })
        #expect(logged[1].responseFormat?["json_schema"]?["name"]?.stringValue == "reflection")
        #expect(logged[0].temperature == 0.2)
        #expect(logged[0].messages?.map(\.role) == ["system", "user"])
        #expect(logged[0].lastUserContent == "Today I walked.")
        #expect(logged[0].promptTokens == 7)
        #expect(try server.requests().last?.answer == "models")
    }

    @Test func aServerTakingOneFormRefusesTheOtherAsItsRealCounterpartDoes() throws {
        let llama = try StubChatServer(accepts: .jsonObject)
        let refused = try Self.post(llama, try Self.request("x", extra: ["response_format": Self.jsonSchemaForm]))
        #expect(refused.status == 500)
        #expect(refused.body == #"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/venv/lib/python3.11/site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    POST /v1/chat/completions","type":"internal_server_error","param":null,"code":null}}"#)
        #expect(try Self.post(llama, try Self.request("x", extra: ["response_format": Self.jsonObjectForm])).status == 200)
        #expect(try llama.completions().map(\.answer) == ["500", "reflect"])

        let openAI = try StubChatServer(accepts: .jsonSchema)
        let unrecognised = try Self.post(openAI, try Self.request("x", extra: ["response_format": Self.jsonObjectForm]))
        #expect(unrecognised.status == 400)
        #expect(unrecognised.body == #"{"error":{"message":"Unrecognized request argument supplied: schema","type":"invalid_request_error","param":null,"code":null}}"#)
        #expect(try Self.post(openAI, try Self.request("x", extra: ["response_format": Self.jsonSchemaForm])).status == 200)
        #expect(try Self.post(openAI, try Self.request("x", extra: ["response_format": ["type": "json_object"]])).status == 200,
                "JSON mode without a schema is OpenAI's too")
    }

    @Test func aRuleGivesItsResponsesInOrderThenItsThen() throws {
        let server = try StubChatServer(rules: [
            .init(match: "boom", responses: [.error(status: 429, code: "rate_limit_exceeded", retryAfter: 2, retryAfterMs: 1500),
                                             .says("```json\n{}\n```")],
                  then: .length("{\"summary\": \"cu")),
        ])
        // Counted per rule, not per text: three different messages walk one rule.
        let replies = try (1...3).map { try Self.post(server, try Self.request("boom \($0)")) }
        let other = try Self.post(server, try Self.request("quiet"))

        #expect(replies.map(\.status) == [429, 200, 200])
        #expect(replies[0].headers["retry-after"] == "2")
        #expect(replies[0].headers["retry-after-ms"] == "1500")
        #expect((replies[0].json["error"] as? [String: Any])?["code"] as? String == "rate_limit_exceeded")
        #expect(replies[1].content == "```json\n{}\n```")
        #expect(replies[1].finishReason == "stop")
        #expect(replies[2].content == "{\"summary\": \"cu")
        #expect(replies[2].finishReason == "length")
        #expect(other.content == #"{"summary": "stub"}"#, "a request no rule matches gets the default")
        #expect(try server.completions().map(\.answer) == ["429", "says", "length", "reflect"])
    }

    @Test func aPromptPastTheContextLimitGetsTheContextError() throws {
        let server = try StubChatServer(rules: [.init(match: "flavour", responses: [.context(.openai)]),
                                                .init(responses: [], then: .says("fits"))],
                                        contextTokens: 20)
        #expect(try Self.post(server, try Self.request("short")).content == "fits")
        // 12 + 100 characters: 28 tokens, past 20 whatever the rules say.
        let long = try Self.post(server, try Self.request(String(repeating: "a", count: 100)))
        #expect(long.status == 400)
        let error = try #require(long.json["error"] as? [String: Any])
        #expect(error["type"] as? String == "exceed_context_size_error")
        #expect(error["message"] as? String == "the request exceeds the available context size, try increasing it")
        #expect(error["n_prompt_tokens"] as? Int == 28)
        #expect(error["n_ctx"] as? Int == 20)
        #expect(error["code"] as? Int == 400)

        let openAI = try Self.post(server, try Self.request("flavour"))
        #expect(openAI.status == 400)
        let openAIError = try #require(openAI.json["error"] as? [String: Any])
        #expect(openAIError["code"] as? String == "context_length_exceeded")
        #expect(openAIError["param"] as? String == "messages")
        #expect(openAIError["message"] as? String
                == "This model's maximum context length is 20 tokens. However, your messages resulted in 5 tokens.")
        #expect(try server.completions().map(\.promptTokens) == [5, 28, 5])
    }

    @Test func aHangingRequestIsLoggedAndNeverAnswered() throws {
        let server = try StubChatServer(rules: [.init(responses: [.hang])])
        #expect(throws: ToolFailure.self) { try Self.post(server, try Self.request("hello"), maxTime: 0.5) }
        let logged = try server.waitForRequests(1)
        #expect(logged.count == 1)
        #expect(logged.first?.answer == "hang")
        #expect(logged.first?.respondedAt == nil)
        #expect(logged.first?.lastUserContent == "hello")
    }

    @Test func aBrokenRequestHasItsProblemsRecorded() throws {
        let server = try StubChatServer(expectedKey: "sk-test")
        let noModel = try Self.post(server, try Self.request("x", model: nil),
                                    headers: ["Content-Type: application/json", "Authorization: Bearer sk-test"])
        #expect(noModel.status == 400)
        let wrongKey = try Self.post(server, try Self.request("x"),
                                     headers: ["Content-Type: application/json", "Authorization: Bearer sk-nope"])
        #expect(wrongKey.status == 401)
        let good = try Self.post(server, try Self.request("x"),
                                 headers: ["Content-Type: application/json", "Authorization: Bearer sk-test"])
        #expect(good.status == 200)

        let logged = try server.completions()
        #expect(logged.map(\.problems) == [["model is missing or not a non-empty string"], ["wrong Authorization header"], []])
        #expect(logged.map(\.authorizationOk) == [true, false, true])
        #expect(logged[0].model == nil)
        #expect(logged.map(\.answer) == ["400", "401", "reflect"])
    }
}
