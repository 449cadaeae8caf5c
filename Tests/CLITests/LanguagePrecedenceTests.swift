import Foundation
import Testing
import VoiceJournalTestSupport

/// Which language each upload sends, seen by the stub server: the run's `--language`, else
/// the answering person's, else the journal's, else the config file's, else none (the model
/// detects it); and the language each transcript is stored and shown with.
@Suite(.onTestThreads) struct LanguagePrecedenceTests {
    /// A question in `journal` given to `person`; the assignment's id.
    private func assignment(_ harness: TranscribeHarness, journal: String, person: String, question: String) throws -> String {
        let asked = try harness.succeed(["question", "add", "--journal", journal, question, "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int)
        let assigned = try harness.succeed(["assign", "\(questionId)", "--person", person, "--json"])
        return String(try #require((try assigned.json() as? [String: Any])?["id"] as? Int))
    }

    /// The `language` field of the newest request, after `arguments` ran (nil: none sent).
    private func sentLanguage(_ harness: TranscribeHarness, after arguments: [String], environment: [String: String] = [:]) throws -> String? {
        let before = try harness.server.requests().count
        try harness.succeed(arguments, environment: environment)
        let requests = try harness.server.requests()
        #expect(requests.count == before + 1, "\(arguments): one upload")
        let last = try #require(requests.last)
        #expect(last.problems.isEmpty, "\(last.problems)")
        return last.field("language")
    }

    @Test func eachUploadSendsTheRunsThenThePersonsThenTheJournalsThenTheConfigFilesLanguage() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.tones(["reise.wav", "plain.wav", "babcia.wav", "mine.wav", "forced.wav", "bare.wav", "forcedanswer.wav"],
                                    in: "audio")
        let config = try harness.binary.writeConfig("[defaults]\nlanguage = \"fr\"\n")
        try harness.succeed(["journal", "create", "Reise", "--language", "de"])
        try harness.succeed(["journal", "create", "Plain"])
        try harness.succeed(["person", "add", "Babcia", "--language", "pl"])
        let babcias = try assignment(harness, journal: "Reise", person: "Babcia", question: "Where did you grow up?")
        let mine = try assignment(harness, journal: "Reise", person: "Myself", question: "What did you see?")
        let forced = try assignment(harness, journal: "Plain", person: "Babcia", question: "And then?")
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }

        #expect(try sentLanguage(harness, after: ["transcribe", file("reise.wav"), "--journal", "Reise"]) == "de", "the journal's")
        #expect(try sentLanguage(harness, after: ["transcribe", file("plain.wav"), "--journal", "Plain"]) == "fr", "the config file's")
        try harness.succeed(["answer", babcias, "--file", file("babcia.wav")])
        #expect(try sentLanguage(harness, after: ["queue", "run"]) == "pl", "the person's before the journal's")
        try harness.succeed(["answer", mine, "--file", file("mine.wav")])
        #expect(try sentLanguage(harness, after: ["queue", "run"]) == "de", "the question's journal for a person without one")
        #expect(try sentLanguage(harness, after: ["transcribe", file("forced.wav"), "--journal", "Reise", "--language", "EN"]) == "en",
                "the run's over the journal's")
        try harness.succeed(["answer", forced, "--file", file("forcedanswer.wav")])
        #expect(try sentLanguage(harness, after: ["queue", "run", "--language", "es"]) == "es", "the run's over the person's")

        // `config show` says where the run's language comes from and what comes before it.
        let shown = try harness.succeed(["config", "show"]).stdout
        let line = try #require(shown.split(separator: "\n").first { $0.hasPrefix("language") })
        #expect(line.contains("fr") && line.contains("config file") && line.contains("after the answering person's, then the journal's"),
                "\(line)")
        let flagged = try harness.succeed(["config", "show", "--language", "de"]).stdout
        #expect(flagged.split(separator: "\n").first { $0.hasPrefix("language") }?.contains("every upload of the run") == true)

        try FileManager.default.removeItem(at: config)
        #expect(try sentLanguage(harness, after: ["transcribe", file("bare.wav"), "--journal", "Plain"]) == nil, "none: detected")
    }

    /// A long file's chunks each send the journal's language, and the transcript assembled
    /// from `json` answers (which name none) keeps it.
    @Test func everyChunkOfALongRecordingSendsTheJournalsLanguage() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .says("Okay."))])
        let dir = try LongAudioTests.inputFolder(harness)
        let file = try LongAudioTests.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 8, tone: 1.5, pause: 1)
        try harness.succeed(["journal", "create", "Reise", "--language", "de"])
        try harness.succeed(["transcribe", file.path, "--journal", "Reise", "--max-chunk-seconds", "6", "--model", "gpt-4o-transcribe"])
        let requests = try harness.server.requests()
        #expect(requests.count >= 3)
        #expect(requests.allSatisfy { $0.field("language") == "de" && $0.problems.isEmpty }, "\(requests.map { $0.field("language") })")
        let stored = try queryDatabase(harness.database, "SELECT language FROM transcript")
        #expect(stored.map { $0.first as? String } == ["de"])
    }

    /// A live take's pieces go through the queue like any upload: the journal's language.
    @Test func aLiveTakesPiecesSendTheJournalsLanguage() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer(rules: [.init(responses: [], then: .says("Dzień dobry."))])
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let fed = LiveRecordTests.phrases(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed + CaptureFixtures.silence(sampleRate: 16000, seconds: 1),
                                     sampleRate: 16000, channels: 1)
        defer { feeder.stop() }
        let cli = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment.merging([
            "OPENAI_BASE_URL": stub.baseURL]) { $1 })
        #expect(try cli.run(["journal", "create", "Dziennik", "--language", "pl"]).status == 0)
        let result = try cli.run(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "20",
                                  "--journal", "Dziennik"])
        #expect(result.status == 0, "\(result.stderr)")
        let pieces = try stub.requests().filter { LiveRecordTests.piece($0) != nil }
        #expect(pieces.count >= 2)
        #expect(pieces.allSatisfy { $0.field("language") == "pl" }, "\(pieces.map { $0.field("language") })")
    }

    /// A `json` answer (gpt-4o's) names no language: the one sent is stored. A `verbose_json`
    /// answer's language wins over the one sent. Rows that hold a name ("german", as older
    /// journals stored it) are shown and filtered as their code.
    @Test func theStoredLanguageIsShownListedFilteredAndExported() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .says("Heute war ein schöner Tag"))])
        let dir = try harness.tones(["json.wav", "verbose.wav", "answer.wav"], in: "audio")
        try harness.succeed(["journal", "create", "Reise", "--language", "de"])
        try harness.succeed(["transcribe", dir.appendingPathComponent("json.wav").path, "--journal", "Reise", "--model", "gpt-4o-transcribe"])
        try harness.succeed(["transcribe", dir.appendingPathComponent("verbose.wav").path, "--journal", "Reise"])
        try harness.succeed(["entry", "add", "--journal", "Reise", "--text", "Heute war ein schöner Tag, getippt"])
        let entries = try #require(try harness.succeed(["entry", "list", "--json"]).json() as? [[String: Any]])
        let byText = Dictionary(entries.map { (($0["audioPath"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "typed",
                                              $0["language"] as? String ?? "none") }) { first, _ in first }
        #expect(byText == ["json.wav": "de", "verbose.wav": "en", "typed": "none"], "\(byText)")

        // An older row holding the name.
        try queryDatabaseWrite(harness.database, """
            UPDATE transcript SET language = 'german' WHERE recordingId = (SELECT id FROM recording WHERE path LIKE '%verbose.wav')
            """)
        let verbose = try #require(try harness.succeed(["entry", "list", "--json"]).json() as? [[String: Any]]).first {
            ($0["audioPath"] as? String)?.hasSuffix("verbose.wav") == true
        }
        #expect(verbose?["language"] as? String == "de")
        let id = try #require(verbose?["id"] as? Int)
        #expect(try harness.succeed(["entry", "show", "\(id)"]).stdout.contains("\nLanguage: German (de)\n"))
        let shown = try #require(try harness.succeed(["entry", "show", "\(id)", "--json"]).json() as? [String: Any])
        #expect(((shown["recording"] as? [String: Any])?["transcript"] as? [String: Any])?["language"] as? String == "de")

        let german = try #require(try harness.succeed(["entry", "list", "--language", "de", "--json"]).json() as? [[String: Any]])
        #expect(german.count == 2 && german.allSatisfy { $0["language"] as? String == "de" }, "typed entries have no language")
        #expect((try harness.succeed(["entry", "list", "--language", "en"]).stdout) == "No entries.\n")
        let found = try #require(try harness.succeed(["search", "schöner", "--language", "DE", "--json"]).json() as? [[String: Any]])
        #expect(found.count == 2 && found.allSatisfy { $0["matchedIn"] as? String == "transcript" })
        #expect(try #require(try harness.succeed(["search", "schöner", "--json"]).json() as? [Any]).count == 3)
        #expect(try #require(try harness.succeed(["search", "schöner", "--language", "pl", "--json"]).json() as? [Any]).isEmpty)

        // An answer: `assignment show`, the person filter and --language together.
        let asked = try harness.succeed(["question", "add", "--journal", "Reise", "Wie war der Tag?", "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int)
        let assigned = try harness.succeed(["assign", "\(questionId)", "--person", "Myself", "--json"])
        let assignmentId = try #require((try assigned.json() as? [String: Any])?["id"] as? Int)
        try harness.succeed(["answer", "\(assignmentId)", "--file", dir.appendingPathComponent("answer.wav").path])
        try harness.succeed(["queue", "run", "--model", "gpt-4o-mini-transcribe"])
        #expect(try harness.succeed(["assignment", "show", "\(assignmentId)"]).stdout.contains("\nLanguage: German (de)\n"))
        let answers = try #require(try harness.succeed(["search", "Tag", "--person", "me", "--language", "de", "--json"]).json()
            as? [[String: Any]])
        #expect(answers.count == 1 && answers.first?["assignmentId"] as? Int == assignmentId)

        // Exports: Markdown names it; the JSON archive carries the code, and an import takes it back.
        let out = harness.folder.path("export")
        try harness.succeed(["export", "--format", "md", "--out", out.path])
        let markdown = try String(contentsOf: out.appendingPathComponent("Reise.md"), encoding: .utf8)
        #expect(markdown.components(separatedBy: "Language: German (de)").count - 1 == 3, "\(markdown)")
        let jsonOut = harness.folder.path("export-json")
        try harness.succeed(["export", "--format", "json", "--out", jsonOut.path])
        let other = VoicejournalBinary(home: harness.folder.path("home2"))
        let imported = try other.run(["import", jsonOut.appendingPathComponent("voicejournal.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let back = try #require(try other.run(["entry", "list", "--language", "de", "--json"]).json() as? [Any])
        #expect(back.count == 2)
        let journals = try #require(try other.run(["journal", "list", "--json"]).json() as? [[String: Any]])
        #expect(journals.first { $0["name"] as? String == "Reise" }?["language"] as? String == "de")
    }
}

/// Runs one statement on the journal with Python's sqlite3 (SQLite alone, no voicejournal).
func queryDatabaseWrite(_ database: URL, _ sql: String) throws {
    let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()"
    _ = try runTool("python3", ["-c", script, database.path, sql])
}
