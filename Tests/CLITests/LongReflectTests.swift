import Foundation
import Testing
import VoiceJournalTestSupport

/// `reflect` on an entry longer than the model's context, against stub chat servers over real
/// HTTP: read in parts (sentence numbers the entry's own), then once as a whole from the
/// parts' reflections; a server with a smaller context than named makes the parts smaller;
/// one too small for anything leaves a failed reflection that says why.
@Suite(.onTestThreads) struct LongReflectTests {
    /// One sentence of the made-up transcript, with the times its words were given.
    struct Sentence {
        var text: String
        var start: Double
        var end: Double
    }

    /// A home with the journal's people (Anna, Tom) and one voice entry (id 1) whose transcript
    /// is `count` spoken sentences, each word timed (0.3 s a word, a pause between sentences);
    /// only sentence `count / 2` names anyone (Anna). Returns the sentences as they were timed.
    static func longEntry(_ folder: TemporaryFolder, count: Int, environment: [String: String]) throws -> (VoicejournalBinary, [Sentence]) {
        let binary = VoicejournalBinary(home: folder.path("home"), environment: environment)
        for name in ["Anna", "Tom"] { #expect(try binary.run(["person", "add", name, "--relationship", "friend"]).status == 0) }
        #expect(try binary.run(["journal", "create", "Days"]).status == 0)
        let openings = ["This morning", "After lunch", "Later on", "In the evening", "On the way home", "Before bed"]
        let middles = ["I walked along the river", "I sorted the papers on my desk", "I thought about the garden",
                       "I cooked a slow soup", "I read a few pages", "I listened to the rain"]
        let endings = ["and it felt calm.", "while the light changed.", "for the first time in weeks.",
                       "without hurrying at all.", "and then sat for a while.", "as the kettle boiled."]
        var sentences: [Sentence] = []
        var segments: [[String: Any]] = []
        var clock = 0.0
        for index in 1...count {
            let text = index == count / 2 ? "Anna called and we talked about moving house."
                : "\(openings[index % 6]) \(middles[(index / 6) % 6]) \(endings[(index / 36) % 6])"
            var words: [[String: Any]] = []
            let start = clock
            for word in text.split(separator: " ") {
                words.append(["word": " " + word, "start": clock, "end": clock + 0.25])
                clock += 0.3
            }
            sentences.append(Sentence(text: text, start: start, end: clock - 0.05))
            segments.append(["start": start, "end": clock - 0.05, "text": " " + text, "words": words])
            clock += 0.7
        }
        // The rows go in straight (a transcript this long is too long for a command line).
        let payload = folder.path("transcript.json")
        try JSONSerialization.data(withJSONObject: ["segments": segments, "text": sentences.map(\.text).joined(separator: " "),
                                                    "duration": clock]).write(to: payload)
        _ = try runTool("python3", ["-c", """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = json.load(open(sys.argv[2]))
            when = "2026-11-20 21:00:00.000"
            journal = db.execute("SELECT id FROM journal WHERE name = 'Days'").fetchone()[0]
            entry = db.execute("INSERT INTO entry (journalId, kind, title, content, createdAt) VALUES (?, 'voice', 'A long day', '', ?)",
                               (journal, when)).lastrowid
            recording = db.execute(
                "INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt) "
                "VALUES ('/nowhere/long.wav', ?, ?, 16000, 1, 'wav', 1000, 'complete', ?, ?)", ("ab" * 32, rows["duration"], entry, when)).lastrowid
            db.execute("INSERT INTO transcript (recordingId, text, language, model, segments, createdAt) VALUES (?, ?, 'en', 'whisper-1', ?, ?)",
                       (recording, rows["text"], json.dumps(rows["segments"]), when))
            db.commit()
            """, binary.home.appendingPathComponent("voicejournal.sqlite").path, payload.path])
        return (binary, sentences)
    }

    /// The sentence numbers a request's user message lists ("12. …" lines).
    static func numbered(_ request: StubChatRequest) -> [Int] {
        (request.lastUserContent ?? "").split(separator: "\n").compactMap { line in
            line.firstIndex(of: ".").flatMap { Int(line[..<$0]) }
        }
    }

    static func isPart(_ request: StubChatRequest) -> Bool {
        request.lastUserContent?.contains("a part of an entry too long to read at once") == true
    }

    static func isWhole(_ request: StubChatRequest) -> Bool {
        request.lastUserContent?.hasPrefix("Journal entry 1 (Days") == true && request.lastUserContent?.contains("was read in") == true
    }

    @Test func aLongEntryIsReadInPartsThenAsAWholeAndItsHighlightIsTheEntrysOwnSentenceAndTime() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(responses: [], then: .reflectCitingLast)])
        let (binary, sentences) = try Self.longEntry(folder, count: 300, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        try binary.writeConfig("[chat]\ncontext = 2048\n")

        // --dry-run says how many parts, shows the first, and sends nothing.
        let dry = try binary.run(["reflect", "1", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("too long for the model's context (2048 tokens") && dry.stdout.contains("The first part's request:"))
        #expect(dry.stdout.contains("\n1. \(sentences[0].text)") && !dry.stdout.contains("\n300. "))
        let plan = try #require(try binary.run(["reflect", "1", "--dry-run", "--json"]).json() as? [String: Any])
        let planned = try #require(plan["parts"] as? Int)
        #expect(planned >= 4 && plan["contextTokens"] as? Int == 2048)
        #expect(try server.requests().isEmpty)

        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.completions()
        let parts = requests.filter(Self.isPart)
        // The parts, then the one request as a whole, last; nothing refused, nothing repaired.
        #expect(parts.count == planned && requests.count == planned + 1, "\(requests.map { $0.lastUserContent?.prefix(60) ?? "" })")
        let whole = try #require(requests.last)
        #expect(Self.isWhole(whole) && requests.allSatisfy { $0.answer == "reflect" && $0.problems.isEmpty })
        // Each part fits the context named, with room for the answer; together they hold every
        // sentence once, in order, numbered as the entry is.
        for part in parts { #expect((part.promptTokens ?? .max) + 700 <= 2048) }
        #expect(parts.flatMap(Self.numbered) == Array(1...300))
        for part in parts.dropFirst() {
            let first = try #require(Self.numbered(part).first)
            #expect(part.lastUserContent?.contains("\n\(first). \(sentences[first - 1].text)\n") == true)
        }
        // The whole gets the parts' reflections, never the transcript: each part's highlight
        // (its last sentence, as the stub cites) as the entry's own words.
        let wholeText = try #require(whole.lastUserContent)
        #expect(Self.numbered(whole).isEmpty && !wholeText.contains(sentences[1].text))
        let lasts = parts.compactMap { Self.numbered($0).last }
        for last in lasts { #expect(wholeText.contains("Highlight \(last): \(sentences[last - 1].text)")) }
        #expect(wholeText.contains("People the entry names: Anna\n") && wholeText.contains("The journal so far"))

        // Kept: valid, made in parts, its highlight the last sentence (far past the first part)
        // with its own words and times; usage summed over every request.
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["status"] as? String == "valid" && json["promptVersion"] as? String == "reflect-1-parts-1")
        let highlight = try #require((json["highlights"] as? [[String: Any]])?.first)
        #expect(highlight["sentence"] as? Int == 300 && highlight["text"] as? String == sentences[299].text)
        let start = try #require(highlight["start"] as? Double), end = try #require(highlight["end"] as? Double)
        #expect(abs(start - sentences[299].start) < 0.001 && abs(end - sentences[299].end) < 0.001)
        #expect(highlight["play"] as? String == "voicejournal play 1 --at \(Self.clock(start))")
        let usage = try #require(json["usage"] as? [String: Any])
        #expect(usage["requests"] as? Int == requests.count)
        #expect(usage["inputTokens"] as? Int == requests.compactMap(\.promptTokens).reduce(0, +))
        #expect(usage["outputTokens"] as? Int == requests.compactMap(\.completionTokens).reduce(0, +))
        // Shown again later, it is checked against the entry and still holds.
        #expect(try binary.run(["entry", "show", "1"]).stdout.contains("Highlight 300 [\(Self.clock(start))]: \(sentences[299].text)"))
    }

    /// `mm:ss` as `play --at` takes it.
    static func clock(_ seconds: Double) -> String {
        String(format: "%02d:%02d", Int(seconds) / 60, Int(seconds) % 60)
    }

    @Test(arguments: [StubChatServer.ContextFlavour.llama, .openai])
    func aServerWithASmallerContextThanNamedMakesThePartsSmallerNotAFailure(flavour: StubChatServer.ContextFlavour) throws {
        let folder = try TemporaryFolder()
        // voicejournal plans for 8192 tokens (the default), the server takes 1500.
        let server = try StubChatServer(contextTokens: 1500, contextFlavour: flavour)
        let (binary, _) = try Self.longEntry(folder, count: 300, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.completions()
        let refused = requests.filter { $0.answer == "400" }
        let answered = requests.filter { $0.answer == "reflect" }
        // The whole at once (with the journal's numbers, then without), then parts halved until they fit.
        #expect(refused.count >= 3 && Self.numbered(refused[0]).count == 300 && Self.numbered(refused[1]).count == 300)
        #expect(answered.allSatisfy { ($0.promptTokens ?? .max) <= 1500 })
        #expect(answered.filter(Self.isPart).flatMap(Self.numbered) == Array(1...300))
        #expect(try #require(answered.last).lastUserContent?.contains("was read in") == true)
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["status"] as? String == "valid")
        // Every request counts, the refused ones too (they read no tokens).
        let usage = try #require(json["usage"] as? [String: Any])
        #expect(usage["requests"] as? Int == requests.count)
        #expect(usage["inputTokens"] as? Int == answered.compactMap(\.promptTokens).reduce(0, +))
    }

    @Test func aContextTooSmallForEvenAFewSentencesLeavesAFailedReflectionThatSaysWhy() throws {
        let folder = try TemporaryFolder()
        // Smaller than the instructions and lists alone: every request is refused.
        let server = try StubChatServer(contextTokens: 150)
        let (binary, _) = try Self.longEntry(folder, count: 300, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        let result = try binary.run(["reflect", "1"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("Reflection failed") && result.stdout.contains("too small to reflect on this entry"))
        #expect(result.stdout.contains("exceeds the available context size") && result.stdout.contains("chat-server --context"))
        let requests = try server.completions()
        // Halved down to the floor, then no more: a handful of requests, none answered.
        #expect(requests.count >= 4 && requests.count <= 10 && requests.allSatisfy { $0.answer == "400" })
        let json = try #require(try binary.run(["reflect", "1", "--json"]).json() as? [String: Any])
        #expect(json["status"] as? String == "failed" && (json["usage"] as? [String: Any])?["requests"] as? Int == requests.count)
        #expect(try server.completions().count == requests.count)
    }

    @Test func partsTooManyForOneRequestAreTakenTogetherInRunsBeforeTheWhole() throws {
        let folder = try TemporaryFolder()
        // Long answers (the most the schema allows), so the parts' reflections outgrow one request.
        let long = String(repeating: "A quiet stretch of the day, told slowly. ", count: 9).prefix(390)
        let answer = ReflectTests.valid(["summary": String(long), "people": [], "highlights": [],
                                         "questions": [String(repeating: "What did the river say to you? ", count: 5).prefix(150)],
                                         "insight": String(long.prefix(230)), "encouragement": String(long.prefix(150))])
        let server = try StubChatServer(rules: [.init(responses: [], then: .says(answer))])
        let (binary, _) = try Self.longEntry(folder, count: 600, environment: ["VOICEJOURNAL_CHAT_URL": server.baseURL])
        try binary.writeConfig("[chat]\ncontext = 2048\n")
        let result = try binary.run(["reflect", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.completions()
        let parts = requests.filter(Self.isPart)
        let runs = requests.filter { $0.lastUserContent?.hasPrefix("Sentences ") == true && $0.lastUserContent?.contains("were read in") == true }
        #expect(parts.count >= 4 && runs.count >= 2 && runs.count < parts.count)
        let whole = try #require(requests.last)
        #expect(requests.count == parts.count + runs.count + 1 && Self.isWhole(whole))
        for request in requests { #expect((request.promptTokens ?? .max) + 700 <= 2048) }
        // The runs cover the entry in order, from the parts' stretches.
        let covered = runs.compactMap { run -> String? in
            (run.lastUserContent ?? "").split(separator: " ").prefix(4).joined(separator: " ")
        }
        #expect(covered.first?.hasPrefix("Sentences 1 to ") == true && covered.last?.hasSuffix(" to 600") == true)
        #expect((try result.json() as? [String: Any])?["status"] as? String == "valid")
    }
}
