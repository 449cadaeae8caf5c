import Foundation
import Testing
import VoiceJournalTestSupport

/// The local chat server (`chat-server/chat-server`: llama-cpp-python with SmolLM2-135M-Instruct)
/// answers an OpenAI chat completion held to a JSON schema, as the reflection on entries asks
/// for one: the fixture the chat tests stand on works. Driven over real HTTP by curl.
@Suite struct LocalChatServerTests {
    @Test func aChatCompletionHeldToASchemaAnswersAnIntegerInItsRange() async throws {
        let server = try await ChatServer.shared()
        #expect(server.model == "SmolLM2-135M-Instruct")
        let request: [String: Any] = [
            "model": server.model,
            "messages": [
                ["role": "system", "content": "Rate the mood of the journal entry from 1 (very low) to 5 (very good). Answer in JSON."],
                ["role": "user", "content": "We walked along the river at dusk and talked for hours. A lovely evening."],
            ],
            "response_format": [
                "type": "json_object",
                "schema": [
                    "type": "object",
                    "properties": ["mood": ["type": "integer", "minimum": 1, "maximum": 5]],
                    "required": ["mood"],
                ] as [String: Any],
            ] as [String: Any],
            "temperature": 0,
            "max_tokens": 40,
        ]
        let folder = try TemporaryFolder("chat-completion")
        let body = folder.path("request.json")
        try JSONSerialization.data(withJSONObject: request).write(to: body)
        let answer = try runTool("curl", ["-sS", "--max-time", "120", "-H", "Content-Type: application/json",
                                          "--data-binary", "@\(body.path)", "\(server.baseURL)/chat/completions"])

        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(answer)")
        let choices = try #require(object["choices"] as? [[String: Any]], "\(answer)")
        let message = try #require(choices.first?["message"] as? [String: Any], "\(answer)")
        #expect(message["role"] as? String == "assistant")
        let content = try #require(message["content"] as? String, "\(answer)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(content.utf8)) as? [String: Any],
                                 "the content is not a JSON object: \(content)")
        let mood = try #require(reply["mood"] as? Int, "no integer mood: \(content)")
        #expect((1...5).contains(mood), "\(content)")
    }
}
