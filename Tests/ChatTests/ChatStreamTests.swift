import Foundation
import Logging
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalChat

/// Streamed answers: server-sent events read as they come, an answer cut short kept with
/// what arrived, errors before any text thrown as for a whole answer.
@Suite struct ChatStreamTests {
    @Test func eventsAreReadAcrossPiecesWithEitherLineEnd() {
        var events = ServerSentEvents()
        #expect(events.feed(Array("data: {\"a\"".utf8)).isEmpty)
        #expect(events.feed(Array(":1}\r\n\r\n: a comment\n\nevent: x\ndata: one\ndata: two\n\n".utf8)) == ["{\"a\":1}", "one\ntwo"])
        #expect(events.feed(Array("data:[DONE]\r\r".utf8)) == ["[DONE]"])
        #expect(events.feed(Array("dataX: not data\n\ndata: cut".utf8)).isEmpty)
        #expect(events.finish() == "cut" && events.finish() == nil)
        var bounded = ServerSentEvents(limit: 8)
        _ = bounded.feed(Array("data: 0123456789abcdef".utf8))
        #expect(bounded.overflowed)
    }

    static func connection(_ server: StubChatServer) throws -> ChatConnection {
        var endpoint = try ChatEndpoint.resolve(baseURL: server.baseURL, model: "m", keyVariable: nil, environment: [:], origin: "test")
        endpoint.answerTimeout = 5
        return try ChatConnection(endpoint: endpoint, logger: Logger(label: "test"))
    }

    /// Collects the pieces `stream` hands over (one thread; a class so the closure can add).
    final class Pieces: @unchecked Sendable { var all: [String] = [] }

    @Test func theAnswerArrivesInPiecesAsItIsWritten() throws {
        let text = "Anna walked to the lake [1] and the water was calm [2]."
        let server = try StubChatServer(rules: [.init(responses: [.says(text)])])
        let pieces = Pieces()
        let answer = try Self.connection(server).stream(ChatRequest(messages: [.user("where did Anna walk?")])) { pieces.all.append($0) }
        #expect(answer.content == text && pieces.all.joined() == text)
        #expect(pieces.all.count >= 2, "several pieces, each handed over as it came")
        #expect(answer.incomplete == nil && answer.finishReason == "stop")
        #expect(answer.firstTextSeconds != nil && answer.firstTextSeconds! <= answer.seconds)
        #expect(!answer.usageReported && answer.outputTokens > 0, "llama.cpp sends no usage: estimated")
        let sent = try #require(try server.completions().first)
        #expect(sent.stream == true && sent.problems.isEmpty, "\(sent.problems)")
    }

    @Test func aServerGoneMidAnswerLeavesWhatArrivedMarkedIncomplete() throws {
        let text = "The first half of this answer arrives and then the server goes away entirely."
        let server = try StubChatServer(rules: [.init(responses: [.cut(text)])])
        let pieces = Pieces()
        let answer = try Self.connection(server).stream(ChatRequest(messages: [.user("q")])) { pieces.all.append($0) }
        #expect(answer.content == String(text.prefix(text.count / 2)))
        #expect(pieces.all.joined() == answer.content)
        #expect(answer.incomplete != nil, "marked incomplete")
    }

    @Test func anErrorBeforeAnyTextIsThrownAsForAWholeAnswer() throws {
        let server = try StubChatServer(rules: [.init(responses: [.error(status: 429, code: "rate_limit_exceeded", retryAfter: 2), .reset])])
        let connection = try Self.connection(server)
        let pieces = Pieces()
        #expect(throws: ChatError.self) { try connection.stream(ChatRequest(messages: [.user("q")])) { pieces.all.append($0) } }
        do {
            _ = try connection.stream(ChatRequest(messages: [.user("q")])) { pieces.all.append($0) }
            Issue.record("a reset before any text is an error")
        } catch {
            #expect(error.kind == .connection || error.kind == .malformedResponse, "\(error)")
        }
        #expect(pieces.all.isEmpty)
    }

    @Test func aServerThatIgnoresStreamIsReadAsOneWholeAnswer() throws {
        let completion = #"{"choices":[{"message":{"role":"assistant","content":"all at once"},"finish_reason":"stop"}]}"#
        let server = try StubChatServer(rules: [.init(responses: [.body(completion)])])
        let pieces = Pieces()
        let answer = try Self.connection(server).stream(ChatRequest(messages: [.user("q")])) { pieces.all.append($0) }
        #expect(answer.content == "all at once" && pieces.all == ["all at once"] && answer.incomplete == nil)
    }
}
