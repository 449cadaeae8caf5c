import Foundation
import Testing
import VoiceJournalTestSupport

/// `ask` against stub chat servers over real HTTP: the passages found and sent, the answer
/// streamed, citations checked, a cut answer kept as incomplete, conversations kept.
@Suite(.onTestThreads) struct AskTests {
    /// A journal of two typed entries and one transcribed recording (entry 3, its words over
    /// its first 1.5 s), "now" being Thursday 26 November 2026.
    static func journal(_ folder: TemporaryFolder, chat: StubChatServer) throws -> VoicejournalBinary {
        let whisper = try StubWhisperServer(rules: [.init(responses: [.says("I met Anna at the harbour and we talked about the boat.")])])
        let binary = VoicejournalBinary(home: folder.path("home"), environment: [
            "OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_CHAT_URL": chat.baseURL, "VOICEJOURNAL_NOW": "2026-11-26T10:00:00Z",
            "TZ": "UTC",
        ])
        #expect(try binary.run(["person", "add", "Anna", "--relationship", "friend"]).status == 0)
        #expect(try binary.run(["entry", "add", "--quiet", "--text", "Tom fixed the bicycle in the garage.", "--date", "2026-11-10T18:00",
                                "--mood", "happy"]).status == 0)
        #expect(try binary.run(["entry", "add", "--quiet", "--text", "Walked by the lake. The water was calm.", "--date", "2026-11-18T08:00",
                                "--mood", "anxious"]).status == 0)
        let audio = folder.path("audio")
        try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
        try SyntheticVoice.writeWAV(SyntheticVoice.pcm16(seconds: 2, dbfs: -16, pitchHz: 160), to: audio.appendingPathComponent("harbour.wav"))
        #expect(try binary.run(["journal", "create", "Days"]).status == 0)
        let transcribed = try binary.run(["transcribe", audio.path, "--journal", "Days", "--date", "2026-11-24T09:00"])
        #expect(transcribed.status == 0, "\(transcribed.stderr)")
        return binary
    }

    @Test func theAnswerStreamsAndEachCitationIsCheckedAndShownWithItsPlayCommand() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [.says("You met Anna at the harbour [1] and talked about a boat [1, 7]. Also [9].")])])
        let binary = try Self.journal(folder, chat: chat)
        let result = try binary.run(["ask", "Where did I meet Anna?"])
        #expect(result.status == 0, "\(result.stderr)")
        // The passage sent: the harbour entry, found by "Anna" (a person, whole) and "meet" (a prefix).
        let sent = try #require(try chat.completions().first)
        let user = try #require(sent.lastUserContent)
        #expect(user.contains("[1] (Tuesday 24 November 2026) I met Anna at the harbour and we talked about the boat."), "\(user)")
        #expect(!user.contains("bicycle") && user.contains("Question: Where did I meet Anna?"))
        #expect(sent.stream == true && sent.problems.isEmpty, "\(sent.problems)")
        // Streamed text first, then the sources: the good citation with its play command, the bad ones counted.
        #expect(result.stdout.hasPrefix("You met Anna at the harbour [1] and talked about a boat [1, 7]. Also [9]."), "\(result.stdout)")
        #expect(result.stdout.contains("Sources:\n  [1] #3 2026-11-24 09:00 @00:00 → voicejournal play 3\n"), "\(result.stdout)")
        #expect(result.stdout.contains("2 citations taken out: [7], [9] named no passage sent."))
        #expect(result.stdout.contains("conversation 1 (ask --continue)"))

        let json = try #require(try binary.run(["ask", "--show", "1", "--json"]).json() as? [[String: Any]])
        let turn = try #require(json.first)
        #expect(turn["answer"] as? String == "You met Anna at the harbour [1] and talked about a boat [1]. Also.")
        #expect(turn["removedCitations"] as? [Int] == [7, 9] && turn["complete"] as? Bool == true)
        let sentPassages = try #require(turn["passages"] as? [[String: Any]])
        #expect(sentPassages.count == 1 && sentPassages.first?["entryId"] as? Int == 3, "which passages were sent: \(sentPassages)")
        let citation = try #require((turn["citations"] as? [[String: Any]])?.first)
        #expect(citation["entryId"] as? Int == 3 && citation["start"] as? Double == 0)
    }

    @Test func aQuestionAboutAPeriodSearchesOnlyThatPeriodAndSaysTheRangeUsed() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [.says("You walked by the lake [1].")])])
        let binary = try Self.journal(folder, chat: chat)
        let result = try binary.run(["ask", "what did I do last week", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["range"] as? String == "last week (Mon 16 Nov 2026 – Sun 22 Nov 2026)")
        let user = try #require(try chat.completions().first?.lastUserContent)
        #expect(user.contains("Walked by the lake.") && !user.contains("bicycle") && !user.contains("harbour"), "\(user)")
        // A counting question gets numbers counted by SQL, not by the model.
        _ = try binary.run(["ask", "How often was I anxious last week?"])
        let counted = try #require(try chat.completions().last?.lastUserContent)
        #expect(counted.contains("1 entry in the period asked about") && counted.contains("anxious 1 time"), "\(counted)")
    }

    @Test func nothingFoundIsSaidToTheModelAndTheAnswerKept() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [.says("Nothing in your journal says.")])])
        let binary = try Self.journal(folder, chat: chat)
        let result = try binary.run(["ask", "What is the capital of Peru?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try chat.completions().first?.lastUserContent?.contains("Passages: none were found.") == true)
        #expect(result.stdout.hasPrefix("Nothing in your journal says.") && !result.stdout.contains("Sources:"))
    }

    @Test func anAnswerCutMidStreamIsKeptMarkedIncomplete() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [.cut("You met Anna at the harbour [1] and then the server went away.")])])
        let binary = try Self.journal(folder, chat: chat)
        let result = try binary.run(["ask", "Where did I meet Anna?", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["complete"] as? Bool == false && (json["incomplete"] as? String)?.isEmpty == false)
        #expect((json["answer"] as? String)?.hasPrefix("You met Anna") == true)
        let shown = try binary.run(["ask", "--show", "1"])
        #expect(shown.stdout.contains("stopped before it was complete"), "\(shown.stdout)")
    }

    @Test func continueSendsTheEarlierTurnAndRetrievesAgain() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [.says("At the harbour [1]."), .says("Tom fixed it [1].")])])
        let binary = try Self.journal(folder, chat: chat)
        #expect(try binary.run(["ask", "Where did I meet Anna?"]).status == 0)
        let next = try binary.run(["ask", "--continue", "Who fixed the bicycle?"])
        #expect(next.status == 0, "\(next.stderr)")
        let sent = try #require(try chat.completions().last)
        let messages = try #require(sent.messages)
        #expect(messages.map(\.role) == ["system", "user", "assistant", "user"], "\(messages.map(\.role))")
        #expect(messages[1].content == "Where did I meet Anna?" && messages[2].content == "At the harbour [1].")
        #expect(sent.lastUserContent?.contains("Tom fixed the bicycle in the garage.") == true, "retrieved for the new question")
        let list = try binary.run(["ask", "--list"])
        #expect(list.stdout.split(separator: "\n").count == 1 && list.stdout.contains("Where did I meet Anna?"))
    }

    @Test func withNoChatEndpointNamedItSaysHowInOneLine() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        let result = try binary.run(["ask", "anything?"])
        #expect(result.status == 3 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("--chat-url"))
    }
}

/// `ask` with an embeddings endpoint: passages embedded once, ranked by meaning beside FTS5
/// and fused; a server without `/v1/embeddings` leaves FTS5 alone, said in a note.
@Suite(.onTestThreads) struct AskEmbeddingsTests {
    static let concepts = ["bike": "cycle", "bicycle": "cycle", "repaired": "fix", "fixed": "fix"]

    static func journal(_ folder: TemporaryFolder, chat: StubChatServer, embeddings: Bool = true) throws -> VoicejournalBinary {
        let binary = VoicejournalBinary(home: folder.path("home"))
        _ = try binary.writeConfig("[chat]\nbase_url = \"\(chat.baseURL)\"\n" + (embeddings ? "embeddings_model = \"stub-embed\"\n" : ""))
        for text in ["Tom fixed the old bicycle in the garage.", "We baked bread on Saturday.", "The meeting ran late again."] {
            #expect(try binary.run(["entry", "add", "--quiet", "--text", text]).status == 0)
        }
        return binary
    }

    @Test func anEntryFoundOnlyByMeaningIsSentAndVectorsAreMadeOncePerPassage() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [], then: .says("Tom did [1]."))], embeddings: Self.concepts)
        let binary = try Self.journal(folder, chat: chat)
        let result = try binary.run(["ask", "Who repaired my bike?", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let user = try #require(try chat.completions().first?.lastUserContent)
        #expect(user.contains("[1] (") && user.contains("Tom fixed the old bicycle in the garage."), "found by meaning: \(user)")
        let embedded = try chat.requests().filter { $0.path.hasSuffix("/embeddings") }
        #expect(embedded.compactMap(\.inputs).flatMap { $0 }.filter { $0 != "Who repaired my bike?" }.count == 3, "each entry's passage once")
        #expect(embedded.allSatisfy { $0.model == "stub-embed" })
        // Asked again: only the question is embedded.
        #expect(try binary.run(["ask", "Who repaired my bike?"]).status == 0)
        let again = try chat.requests().filter { $0.path.hasSuffix("/embeddings") }.dropFirst(embedded.count)
        #expect(again.compactMap(\.inputs) == [["Who repaired my bike?"]])
        // A corrected entry is embedded again.
        #expect(try binary.run(["entry", "edit", "2", "--text", "We baked rye bread on Saturday."]).status == 0)
        #expect(try binary.run(["ask", "Who repaired my bike?"]).status == 0)
        let afterCorrection = try chat.requests().filter { $0.path.hasSuffix("/embeddings") }.compactMap(\.inputs).flatMap { $0 }
        #expect(afterCorrection.contains("We baked rye bread on Saturday."))
    }

    @Test func withoutEmbeddingsOnlyWordsFindPassages() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: [], then: .says("Nothing in your journal says."))])
        // Named but not served: a 404, searched by words alone, said once.
        let named = try Self.journal(folder, chat: chat)
        let result = try named.run(["ask", "Who fixed the bicycle?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(No embeddings:") && result.stdout.contains("searched by words alone"), "\(result.stdout)")
        #expect(try chat.completions().last?.lastUserContent?.contains("Tom fixed the old bicycle") == true)
        // Not named: no embeddings request at all, and a question sharing no word finds nothing.
        let other = try TemporaryFolder()
        let plain = try Self.journal(other, chat: chat, embeddings: false)
        let before = try chat.requests().count
        #expect(try plain.run(["ask", "Who repaired my bike?"]).status == 0)
        #expect(try chat.requests().dropFirst(before).allSatisfy { !$0.path.hasSuffix("/embeddings") })
        #expect(try chat.completions().last?.lastUserContent?.contains("Passages: none were found.") == true)
    }
}

/// What a reflection said of an entry is searched too.
@Suite(.onTestThreads) struct AskReflectionSearchTests {
    @Test func anEntryFoundByWhatItsReflectionSaidIsSent() throws {
        let folder = try TemporaryFolder()
        let reflection = #"{"summary": "A long hike that eased your worries.", "mood": "happy", "intensity": 3, "themes": ["health"], "people": [], "highlights": [1], "questions": ["Where will you walk next?"], "insight": "Walking helps.", "encouragement": "Keep going."}"#
        let chat = try StubChatServer(rules: [.init(match: "Passages", responses: [], then: .says("It did [1].")),
                                              .init(responses: [.says(reflection)])])
        let binary = VoicejournalBinary(home: folder.path("home"), environment: ["VOICEJOURNAL_CHAT_URL": chat.baseURL])
        #expect(try binary.run(["entry", "add", "--quiet", "--text", "We walked for hours and I felt lighter."]).status == 0)
        #expect(try binary.run(["entry", "add", "--quiet", "--text", "The meeting ran late again."]).status == 0)
        let reflected = try binary.run(["reflect", "1", "--json"])
        #expect((try reflected.json() as? [String: Any])?["status"] as? String == "valid", "\(reflected.stdout)\(reflected.stderr)")
        let asked = try binary.run(["ask", "Did the hike help?"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let user = try #require(try chat.completions().last?.lastUserContent)
        #expect(user.contains("[1] (") && user.contains("We walked for hours and I felt lighter."), "\(user)")
        #expect(!user.contains("meeting"))
    }
}

/// Which entry `ask` sends first when the one word a question shares with its answer is in
/// other entries too: FTS5 ranks the shorter of equals first; the sentence saying what was
/// asked (a place for "where", a time for "when", what someone said for "what did … tell
/// me") ranks above.
@Suite(.onTestThreads) struct AskRankingTests {
    @Test func theSentenceSayingWhatWasAskedRanksAboveOnesSharingItsWord() throws {
        let folder = try TemporaryFolder()
        let chat = try StubChatServer(rules: [.init(responses: Array(repeating: .says("ok"), count: 8))])
        let binary = VoicejournalBinary(home: folder.path("home"))
        _ = try binary.writeConfig("[chat]\nbase_url = \"\(chat.baseURL)\"\n")
        // (question, the answer's entry, entries holding its word in other senses: shorter, so
        // FTS5's bm25 alone ranks them first)
        let cases = [
            ("Where did I put my glasses?", "Long day, honestly. I left my reading glasses in the glovebox of the car. Anyway, that's it.",
             ["Had two glasses of wine.", "Two glasses of lemonade, then home."]),
            ("When does Mum arrive?", "Busy week ahead. Mum's train gets into platform two at half past four on Saturday. Need to tidy.",
             ["Mum rang, she's fine.", "Mum sent a photo."]),
            ("Can Aunt Rosa eat nuts?", "Aunt Rosa is allergic to walnuts, so no walnut bread at dinner. Busy week ahead, honestly.",
             ["Aunt Rosa called about lunch."]),
            ("What did the vet tell me about feeding?", "The vet said Biscuit should get half a cup of dry food, and we walked home slowly.",
             ["The vet bill was more than I expected.", "Drove past the vet."]),
            ("How long will the brakes last?", "The mechanic rotated the tyres and said the brakes have about a year left. Then lunch.",
             ["The brakes on my bike squeak.", "New brakes for the van."]),
            // FTS5 finds "tulip" for "tulips" (its stemmer); so must the sentence ranking.
            ("Where did I plant the tulips?", "I buried the tulip bulbs along the fence on the left side of the garden.",
             ["Planted herbs in the window box.", "Planted basil in a pot."]),
        ]
        var answers: [String: Int] = [:]
        for (question, answer, others) in cases {
            for text in others + [answer] {
                let added = try binary.run(["entry", "add", "--text", text, "--json"])
                let entry = try #require(added.json() as? [String: Any])
                if text == answer { answers[question] = entry["id"] as? Int }
            }
        }
        for (question, _, _) in cases {
            let asked = try binary.run(["ask", question, "--json"])
            #expect(asked.status == 0, "\(asked.stderr)")
            let json = try #require(asked.json() as? [String: Any])
            let first = (json["passages"] as? [[String: Any]])?.first?["entryId"] as? Int
            #expect(first == answers[question], "\(question): first passage from entry \(first ?? -1), not \(answers[question] ?? -1)")
        }
    }
}

/// `ask --person`: the passages are the answers that person gave (their transcripts), cited
/// by assignment with the command that plays the answer.
@Suite(.onTestThreads) struct AskPersonTests {
    @Test func withAPersonTheirAnswersAreThePassagesAndCitationsPlayTheAnswer() throws {
        let folder = try TemporaryFolder()
        let whisper = try StubWhisperServer(rules: [.init(responses: [.says("I grew up by the harbour in a blue house.")])])
        let chat = try StubChatServer(rules: [.init(responses: [.says("By the harbour, in a blue house [1].")])])
        let binary = VoicejournalBinary(home: folder.path("home"), environment: [
            "OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_CHAT_URL": chat.baseURL, "TZ": "UTC",
        ])
        for arguments in [["journal", "create", "Family"], ["person", "add", "Grandma Rose"],
                          ["question", "add", "--journal", "Family", "Where did you grow up?"], ["assign", "1", "--person", "Grandma Rose"],
                          ["entry", "add", "--text", "The harbour was busy today, boats everywhere."]] {
            let result = try binary.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let audio = folder.path("answer.wav")
        try SyntheticVoice.writeWAV(SyntheticVoice.pcm16(seconds: 2, dbfs: -16, pitchHz: 160), to: audio)
        #expect(try binary.run(["answer", "1", "--file", audio.path]).status == 0)
        let transcribed = try binary.run(["queue", "run"])
        #expect(transcribed.status == 0, "\(transcribed.stderr)")

        let asked = try binary.run(["ask", "Where did she grow up, by the harbour?", "--person", "Grandma Rose", "--json"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let json = try #require(try asked.json() as? [String: Any])
        let sent = try #require(json["passages"] as? [[String: Any]])
        #expect(sent.count == 1 && sent.first?["assignmentId"] as? Int == 1 && sent.first?["entryId"] == nil, "only her answer: \(sent)")
        let citation = try #require((json["citations"] as? [[String: Any]])?.first)
        #expect((citation["command"] as? String)?.contains("--assignment 1") == true, "\(citation)")
        let user = try #require(try chat.completions().first?.lastUserContent)
        #expect(user.contains("I grew up by the harbour in a blue house.") && !user.contains("boats everywhere"), "\(user)")
        let shown = try binary.run(["ask", "--show", "1"])
        #expect(shown.stdout.contains("[1] assignment 1 "), "\(shown.stdout)")
    }
}
