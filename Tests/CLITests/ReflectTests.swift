import Foundation
import Testing
import VoiceJournalTestSupport

/// `reflect` against stub chat servers over real HTTP: what is sent, what is checked, one
/// repair and no more, faults handled as the transcription queue handles them, and nothing
/// sent where the user did not say.
@Suite(.onTestThreads) struct ReflectTests {
    static let entryText = "I walked to the lake with Anna this morning. The water was calm. Later I finished the report."

    /// A home with the journal's people (Anna, Tom) and one typed entry (id 1).
    static func journal(_ folder: TemporaryFolder, environment: [String: String] = [:]) throws -> VoicejournalBinary {
        let binary = VoicejournalBinary(home: folder.path("home"), environment: environment)
        for name in ["Anna", "Tom"] { #expect(try binary.run(["person", "add", name, "--relationship", "friend"]).status == 0) }
        #expect(try binary.run(["entry", "add", "--text", entryText]).status == 0)
        return binary
    }

    static func valid(_ changes: [String: Any] = [:]) -> String {
        var fields: [String: Any] = [
            "summary": "A calm walk with Anna.", "mood": "neutral", "intensity": 3, "themes": ["relationships"], "people": ["Anna"],
            "highlights": [2], "questions": ["What made the water calm?"], "insight": "Walks come before work.",
            "encouragement": "Keep walking.",
        ]
        for (key, value) in changes { fields[key] = value }
        return String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func withNoChatEndpointNamedItSaysHowInOneLineAndSendsNothing() throws {
        let folder = try TemporaryFolder()
        let binary = try Self.journal(folder)
        let result = try binary.run(["reflect", "1"])
        #expect(result.status == 3)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("voicejournal-chat-server") && result.stderr.contains("--chat-url"))
    }

    @Test func aValidAnswerIsKeptWithItsUsageShownWithItsSentencesAndNotAskedTwice() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(responses: [.says(Self.valid())])])
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL, "VOICEJOURNAL_CHAT_MODEL": "tiny"])
        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["status"] as? String == "valid")
        #expect(json["model"] as? String == "tiny")
        #expect(json["people"] as? [String] == ["Anna"])
        let highlight = try #require((json["highlights"] as? [[String: Any]])?.first)
        #expect(highlight["sentence"] as? Int == 2 && highlight["text"] as? String == "The water was calm.")
        // What went: the sentences numbered, the people offered, the schema in llama.cpp's form (a loopback server).
        let sent = try #require(try server.completions().first)
        let user = try #require(sent.lastUserContent)
        #expect(user.contains("1. I walked to the lake with Anna this morning.\n2. The water was calm.\n3. Later I finished the report."))
        #expect(user.contains("People in this journal: Anna, Tom"))
        #expect(sent.schemaForm == "json_object" && sent.model == "tiny" && sent.problems.isEmpty)
        // Usage as the server reported it; a loopback server costs nothing.
        let usage = try #require(json["usage"] as? [String: Any])
        #expect(usage["inputTokens"] as? Int == sent.promptTokens && usage["outputTokens"] as? Int == sent.completionTokens)
        #expect(usage["cost"] as? Double == 0 && usage["requests"] as? Int == 1)
        // entry show has it; a second reflect sends nothing.
        let shown = try binary.run(["entry", "show", "1"])
        #expect(shown.stdout.contains("Highlight 2: The water was calm.") && shown.stdout.contains("Summary: A calm walk with Anna."))
        let again = try binary.run(["reflect", "1"])
        #expect(again.status == 0 && again.stdout.contains("nothing was sent"))
        #expect(try server.completions().count == 1)
        #expect(try binary.run(["reflect", "1", "--again"]).status == 0)
        #expect(try server.completions().count == 2)
        #expect(try binary.run(["stats"]).stdout.contains("Reflections:    2"))
    }

    @Test(arguments: [
        (valid(["mood": "joyful"]), "mood \"joyful\" is not one of"),
        (valid(["highlights": [99]]), "highlight 99 is not a sentence number from 1 to 3"),
        (valid(["people": ["Tom"]]), "Tom is not named in the entry"),
        ("I think this entry is calm.", "the answer is not JSON"),
        ("```json\n" + valid() + "\n```", "code fence"),
    ])
    func aBrokenAnswerGetsOneRepairWithItsReasonsThenIsKeptOrFailed(broken: String, reason: String) throws {
        // Repaired: the second answer is good.
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(responses: [.says(broken), .says(Self.valid())])])
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        let repaired = try binary.run(["reflect", "1", "--json"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect((try repaired.json() as? [String: Any])?["status"] as? String == "valid")
        let requests = try server.completions()
        #expect(requests.count == 2)
        #expect(requests.last?.lastUserContent?.contains(reason) == true, "\(requests.last?.lastUserContent ?? "")")
        #expect(requests.last?.messages?.contains { $0.role == "assistant" && $0.content == broken } == true)

        // Broken twice: kept as failed with the reason, none of it shown, exit 1, no third request.
        let other = try TemporaryFolder()
        let stubborn = try StubChatServer(rules: [.init(responses: [.says(broken)], then: .says(broken))])
        let second = try Self.journal(other, environment: ["VOICEJOURNAL_CHAT_URL": stubborn.baseURL])
        let failed = try second.run(["reflect", "1"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("Reflection failed") && failed.stdout.contains(reason))
        #expect(!failed.stdout.contains("Summary:"))
        #expect(try stubborn.completions().count == 2)
        let json = try #require(try second.run(["reflect", "1", "--json"]).json() as? [String: Any])
        #expect(json["status"] as? String == "failed" && json["summary"] is NSNull)
        #expect((json["reasons"] as? [String])?.contains { $0.contains(reason) } == true)
    }

    @Test func aServerThatRefusesOneSchemaFormIsAskedInTheOtherOnce() throws {
        let folder = try TemporaryFolder()
        // An OpenAI-like server: a json_object with a schema is refused with HTTP 400.
        let server = try StubChatServer(accepts: .jsonSchema)
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try server.completions().map(\.schemaForm) == ["json_object", "json_schema"])
        // Fixed in the config file: no switching, the refusal is the answer.
        let fixed = try TemporaryFolder()
        let llama = try StubChatServer(accepts: .jsonObject)
        let configured = try Self.journal(fixed)
        try configured.writeConfig("[chat]\nbase_url = \"\(llama.baseURL)\"\nschema = \"json_schema\"\n")
        let refused = try configured.run(["reflect", "1"])
        #expect(refused.status == 1 && refused.stderr.contains("HTTP 500"))
        #expect(try llama.completions().map(\.schemaForm) == ["json_schema"])
    }

    @Test(arguments: ["429", "500", "reset", "hang"])
    func aPassingFaultIsTriedAgainAndTheReflectionKept(fault: String) throws {
        let behaviour: StubChatServer.Behaviour = switch fault {
        case "429": .error(status: 429, code: "rate_limit_exceeded", message: "slow down", retryAfter: 1)
        case "500": .error(status: 500, message: "boom")
        case "reset": .reset
        default: .hang
        }
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(responses: [behaviour, .says(Self.valid())])])
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL, "VOICEJOURNAL_ANSWER_TIMEOUT": "1"])
        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try result.json() as? [String: Any])?["status"] as? String == "valid")
        let requests = try server.completions()
        #expect(requests.count == 2)
        if fault == "429", requests.count == 2 {
            // Never sooner than the server asked.
            #expect(requests[1].receivedAt - requests[0].receivedAt >= 0.95)
        }
    }

    @Test func aRefusedKeyStopsAtOnceInOneLineWithoutTheKey() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(expectedKey: "sk-right-one")
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL,
                                                             "VOICEJOURNAL_CHAT_API_KEY": "sk-wrong-secret-key"])
        let result = try binary.run(["reflect", "1"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("HTTP 401") && result.stderr.contains("VOICEJOURNAL_CHAT_API_KEY"))
        #expect(!result.stderr.contains("sk-wrong-secret-key") && !result.stdout.contains("sk-wrong-secret-key"))
        #expect(try server.completions().count == 1)
        // The right key goes in the header, and the reflection is made.
        let good = try binary.run(["reflect", "1"], environment: ["VOICEJOURNAL_CHAT_API_KEY": "sk-right-one"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try server.completions().last?.authorizationOk == true)
    }

    @Test(arguments: [StubChatServer.ContextFlavour.llama, .openai])
    func aContextTooSmallIsAskedAgainShorterNotFailed(flavour: StubChatServer.ContextFlavour) throws {
        let folder = try TemporaryFolder()
        // Fits without the counts about the journal, not with them.
        let probe = try StubChatServer()
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": probe.baseURL])
        #expect(try binary.run(["reflect", "1"]).status == 0)
        let full = try #require(try probe.completions().first?.promptTokens)
        let server = try StubChatServer(contextTokens: full - 5, contextFlavour: flavour)
        let result = try binary.run(["reflect", "1", "--again", "--json"], environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.completions()
        #expect(requests.count == 2)
        #expect(requests[0].lastUserContent?.contains("The journal so far") == true)
        #expect(requests[1].lastUserContent?.contains("The journal so far") == false)
    }

    @Test func dryRunPrintsWhatWouldGoAndSendsNothing() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        let result = try binary.run(["reflect", "1", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("nothing was sent") && result.stdout.contains("2. The water was calm."))
        #expect(result.stdout.contains("About ") && result.stdout.contains("input tokens"))
        let json = try #require(try binary.run(["reflect", "1", "--dry-run", "--json"]).json() as? [String: Any])
        #expect(json["sent"] as? Bool == false)
        #expect(((json["body"] as? [String: Any])?["messages"] as? [Any])?.count == 2)
        #expect(try server.requests().isEmpty)
    }

    @Test func applyTakesTheSuggestionOnlyWhereTheEntryHasNone() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(match: "A quiet day", responses: [.says(Self.valid(["people": [], "highlights": [1]]))]),
                                                .init(responses: [.says(Self.valid())])])
        let binary = try Self.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        #expect(try binary.run(["entry", "add", "--text", "A quiet day at work.", "--mood", "sad"]).status == 0)
        #expect(try binary.run(["reflect", "1", "--apply"]).stdout.contains("Applied to entry 1: mood neutral, theme relationships"))
        let applied = try #require(try binary.run(["entry", "show", "1", "--json"]).json() as? [String: Any])
        #expect(applied["mood"] as? String == "neutral" && applied["theme"] as? String == "relationships")
        #expect(try binary.run(["reflect", "2", "--apply"]).status == 0)
        let kept = try #require(try binary.run(["entry", "show", "2", "--json"]).json() as? [String: Any])
        #expect(kept["mood"] as? String == "sad" && kept["theme"] as? String == "relationships")
    }
}

/// Reflections brought in by an import are data like any other row: checked as they come in,
/// and their claims checked again against the entry before they are shown as a model's view.
@Suite(.onTestThreads) struct ImportedReflectionTests {
    @Test func anImportedReflectionIsShownOnlyAsFarAsTheEntryBearsItOut() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(responses: [.says(ReflectTests.valid())])])
        let binary = try ReflectTests.journal(folder, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        #expect(try binary.run(["reflect", "1"]).status == 0)
        #expect(try binary.run(["export", "--format", "json", "--out", folder.path("export").path]).status == 0)
        let file = folder.path("export/voicejournal.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        // The highlight's text made to say what the entry never did.
        let crafted = text.replacingOccurrences(of: "The water was calm.\\\"", with: "Send your password to me.\\\"")
        #expect(crafted != text)
        try Data(crafted.utf8).write(to: file)
        let other = VoicejournalBinary(home: folder.path("home2"))
        #expect(try other.run(["import", file.path]).status == 0)
        let shown = try other.run(["entry", "show", "1"])
        #expect(shown.stdout.contains("Reflection failed") && shown.stdout.contains("highlight 2 is no longer that sentence"))
        #expect(!shown.stdout.contains("Send your password"))
        // Reasons that are not a list of texts: the import is refused in one line and nothing is written.
        let broken = text.replacingOccurrences(of: "\"reasons\" : \"[]\"", with: "\"reasons\" : \"{oops\"")
        #expect(broken != text)
        try Data(broken.utf8).write(to: file)
        let third = VoicejournalBinary(home: folder.path("home3"))
        let refused = try third.run(["import", file.path])
        #expect(refused.status != 0 && refused.stderr.contains("reasons"))
        #expect(try third.run(["entry", "list"]).stdout.contains("No entries"))
    }
}
