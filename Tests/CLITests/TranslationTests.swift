import Foundation
import Testing
import VoiceJournalTestSupport

/// `--translate` through the built binary and the stub server, whose transcriptions here say
/// the speech is German (so a translation is asked) unless a test says English, and whose
/// translations of `NAME.wav` are "Translation of NAME." unless a rule says otherwise.
@Suite(.onTestThreads) struct TranslationTests {
    /// The translation columns of every transcript, by recording path.
    static func translations(_ harness: TranscribeHarness) throws -> [String: (text: String?, note: String?, segments: [[String: Any]])] {
        let rows = try queryDatabase(harness.database, """
            SELECT recording.path, transcript.translation, transcript.translationNote, transcript.translationSegments
            FROM transcript JOIN recording ON recording.id = transcript.recordingId
            """)
        var result: [String: (String?, String?, [[String: Any]])] = [:]
        for row in rows {
            guard let path = row[0] as? String else { continue }
            let segments = (row[3] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]] } ?? []
            result[path] = (row[1] as? String, row[2] as? String, segments)
        }
        return result
    }

    static func translationRequests(_ harness: TranscribeHarness) throws -> [StubRequest] {
        try harness.server.requests().filter { $0.task == "translate" }
    }

    @Test func theTranslationIsStoredBesideTheOriginalAndBothAreFoundAndShown() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"], language: "german")
        _ = try harness.succeed(["journal", "create", "Reisen"])
        let dir = try harness.tones(["fahrrad.wav"], in: "in", seconds: 3.25)
        let run = try harness.succeed(["transcribe", dir.path, "--journal", "Reisen", "--translate", "--sidecar", "json"])
        #expect(!run.stderr.contains("translation not stored"), "\(run.stderr)")

        let file = dir.appendingPathComponent("fahrrad.wav").path
        #expect(try harness.transcripts()[file]?.text == "Transcript of fahrrad.")
        let stored = try #require(try Self.translations(harness)[file])
        #expect(stored.text == "Translation of fahrrad." && stored.note == nil)
        #expect(stored.segments.compactMap { $0["start"] as? Double } == [0, 1.5])

        // The same audio went to the translations endpoint, asked as OpenAI takes it.
        let asked = try #require(try Self.translationRequests(harness).first)
        let transcribed = try #require(try harness.server.requests().first { $0.task == "transcribe" })
        #expect(try Self.translationRequests(harness).count == 1)
        #expect(asked.problems.isEmpty, "\(asked.problems)")
        #expect(asked.file?.sha256 == transcribed.file?.sha256)
        #expect(asked.field("model") == "whisper-1" && asked.field("response_format") == "verbose_json")
        #expect(asked.field("language") == nil && asked.fields?["timestamp_granularities[]"] == nil)

        // Both are searchable; a hit in the translation is timed by the translation's segments.
        let translated = try #require(try harness.succeed(["search", "translation", "--json"]).json() as? [[String: Any]]).first
        #expect(translated?["matchedIn"] as? String == "translation" && translated?["segmentStart"] as? Double == 0)
        let original = try #require(try harness.succeed(["search", "transcript", "--json"]).json() as? [[String: Any]]).first
        #expect(original?["matchedIn"] as? String == "transcript")

        // Shown under the original by `entry show`, and in its JSON, the listing and the sidecar.
        let entries = try #require(try harness.succeed(["entry", "list", "--json"]).json() as? [[String: Any]])
        #expect(entries.first?["translation"] as? String == "Translation of fahrrad.")
        let id = try #require(entries.first?["id"] as? Int)
        let page = try harness.succeed(["entry", "show", String(id)]).stdout
        #expect(page.contains("[00:00] Transcript of\n[00:01] fahrrad.\n\nTranslation (English):\n[00:00] Translation of\n[00:01] fahrrad."),
                "\(page)")
        let json = try #require(try harness.succeed(["entry", "show", String(id), "--json"]).json() as? [String: Any])
        #expect(json["translation"] as? String == "Translation of fahrrad.")
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("fahrrad.json"))) as? [String: Any])
        #expect(sidecar["translation"] as? String == "Translation of fahrrad." && sidecar.keys.contains("translationNote"))
        let markdown = try harness.succeed(["export", "--format", "md"]).stdout
        #expect(markdown.contains("Translation (English):\n\nTranslation of fahrrad."), "\(markdown)")
    }

    @Test(arguments: [400, 404])
    func aServerThatCannotTranslateIsAskedOnceAndEveryOriginalIsStored(status: Int) throws {
        let refusal: StubWhisperServer.Behaviour = status == 400
            ? .error(status: 400, code: "model_cannot_translate",
                     message: "The model tiny.en is English-only and cannot translate; run the server with --model base")
            : .error(status: 404, message: "no route /v1/audio/translations")
        let harness = try TranscribeHarness(translateRules: [.init(responses: [], then: refusal)], language: "german")
        _ = try harness.succeed(["journal", "create", "Reisen"])
        let dir = try harness.audio(3)
        let run = try harness.binary.run(["transcribe", dir.path, "--translate", "--jobs", "1", "--journal", "Reisen", "--json"])
        // The originals are stored: the run did its work, whatever the translations.
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        #expect(try Self.translationRequests(harness).count == 1)
        let stored = try Self.translations(harness)
        #expect(stored.count == 3 && stored.values.allSatisfy { $0.text == nil && $0.segments.isEmpty })
        let expected = status == 400 ? "the server cannot translate (HTTP 400: The model tiny.en is English-only and cannot translate; run the server with --model base)"
            : "the server has no translation endpoint (HTTP 404: no route /v1/audio/translations)"
        #expect(stored.values.allSatisfy { $0.note == expected }, "\(stored.values.map(\.note))")
        // `--json` lists every file stored without its translation.
        let summary = try #require(try run.json() as? [String: Any])
        #expect((summary["untranslated"] as? [[String: Any]])?.compactMap { $0["message"] as? String }.count == 3, "\(summary)")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("translation not stored") }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains(expected) == true && lines.first?.contains("no more translations") == true)

        // `entry show` says why under the heading, and `entry show --json` has the note.
        let entries = try #require(try harness.succeed(["entry", "list", "--json"]).json() as? [[String: Any]])
        let id = try #require(entries.first?["id"] as? Int)
        #expect(entries.first?["translationNote"] as? String == expected)
        let page = try harness.succeed(["entry", "show", String(id)]).stdout
        #expect(page.contains("\n\nTranslation (English):\n[not stored: \(expected)]"), "\(page)")
    }

    @Test func aLoopingTranslationIsCutToOnePhrase() throws {
        let harness = try TranscribeHarness(
            translateRules: [.init(responses: [], then: .says("The bike is cold, cold, cold, cold, cold, cold."))], language: "german")
        let dir = try harness.audio(1)
        try harness.succeed(["transcribe", dir.path, "--translate"])
        let stored = try #require(try Self.translations(harness).values.first)
        #expect(stored.text == "The bike is cold,", "\(String(describing: stored.text))")
        #expect(stored.note == nil)
    }

    @Test func englishSpeechAsksNoTranslation() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let run = try harness.succeed(["transcribe", dir.path, "--translate"])
        #expect(try Self.translationRequests(harness).isEmpty)
        #expect(try harness.server.requests().count == 2)
        #expect(try Self.translations(harness).values.allSatisfy { $0.text == nil && $0.note == nil })
        #expect(!run.stderr.contains("translation"))
    }

    @Test func withoutTranslateNoTranslationIsAsked() throws {
        let harness = try TranscribeHarness(language: "german")
        try harness.succeed(["transcribe", try harness.audio(1).path])
        #expect(try Self.translationRequests(harness).isEmpty)
    }

    @Test func aGPT4oRunTranslatesWithWhisper1() throws {
        let harness = try TranscribeHarness(language: "german")
        let dir = try harness.audio(1)
        try harness.succeed(["transcribe", dir.path, "--translate", "--model", "gpt-4o-transcribe"])
        let asked = try #require(try Self.translationRequests(harness).first)
        #expect(asked.problems.isEmpty, "\(asked.problems)")
        #expect(asked.field("model") == "whisper-1" && asked.field("response_format") == "verbose_json")
        let transcribed = try #require(try harness.server.requests().first { $0.task == "transcribe" })
        #expect(transcribed.field("model") == "gpt-4o-transcribe")
        #expect(try Self.translations(harness).values.first?.text == "Translation of clip00.")
    }

    @Test func theConfigFileCanAskForTranslations() throws {
        let harness = try TranscribeHarness(language: "german")
        let config = harness.folder.path("config.toml")
        try Data("[defaults]\ntranslate = true\n".utf8).write(to: config)
        try harness.succeed(["transcribe", try harness.audio(1).path, "--config", config.path])
        #expect(try Self.translationRequests(harness).count == 1)
        #expect(try Self.translations(harness).values.first?.text == "Translation of clip00.")
    }

    @Test func aJournalThatAsksForTranslationsGetsThemWithoutTheFlagAndTheyTravelInTheArchive() throws {
        let harness = try TranscribeHarness(language: "german")
        _ = try harness.succeed(["journal", "create", "Oma"])
        let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()"
        _ = try runTool("python3", ["-c", script, harness.database.path, "UPDATE journal SET translate = 1 WHERE name = 'Oma'"])
        try harness.succeed(["transcribe", try harness.audio(1, in: "oma", prefix: "oma").path, "--journal", "Oma"])
        try harness.succeed(["transcribe", try harness.audio(1, in: "mine", prefix: "mine").path, "--journal", "Personal"])
        let stored = try Self.translations(harness)
        #expect(try Self.translationRequests(harness).count == 1)
        #expect(stored.first { $0.key.hasSuffix("oma00.wav") }?.value.text == "Translation of oma00.")
        #expect(stored.first { $0.key.hasSuffix("mine00.wav") }?.value.text == nil)

        // The JSON archive carries the translation to another home.
        let archive = harness.folder.path("archive.json")
        try Data(try harness.succeed(["export", "--format", "json"]).stdout.utf8).write(to: archive)
        let fresh = VoicejournalBinary(home: harness.folder.path("fresh"), environment: ["TZ": "UTC"])
        #expect(try fresh.run(["import", archive.path]).status == 0)
        let entries = try #require(try fresh.run(["entry", "list", "--json"]).json() as? [[String: Any]])
        #expect(entries.compactMap { $0["translation"] as? String } == ["Translation of oma00."])
        #expect(try fresh.run(["search", "translation"]).stdout.contains("Oma"))
    }

    @Test func anAnswersTranslationIsShownUnderItByAssignmentShow() throws {
        let harness = try TranscribeHarness(language: "polish")
        _ = try harness.succeed(["journal", "create", "Family"])
        _ = try harness.succeed(["person", "add", "Babcia"])
        let asked = try harness.succeed(["question", "add", "--journal", "Family", "Where did you grow up?", "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int)
        let assigned = try harness.succeed(["assign", String(questionId), "--person", "Babcia", "--json"])
        let id = try #require((try assigned.json() as? [String: Any])?["id"] as? Int)
        let audio = try makeTone(at: harness.folder.path("babcia.wav"), seconds: 3.25, frequency: 400)
        _ = try harness.succeed(["answer", String(id), "--file", audio.path])
        _ = try harness.succeed(["queue", "run", "--translate"])
        let page = try harness.succeed(["assignment", "show", String(id)]).stdout
        #expect(page.contains("\n\nTranslation (English):\n[00:00] Translation of"), "\(page)")
        let json = try #require(try harness.succeed(["assignment", "show", String(id), "--json"]).json() as? [String: Any])
        let transcript = (json["recording"] as? [String: Any])?["transcript"] as? [String: Any]
        #expect((transcript?["translation"] as? String)?.hasPrefix("Translation of") == true)
    }

    @Test func aChunkedRecordingsTranslationIsStitchedOnTheRecordingsClock() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .timed)],
                                            translateRules: [.init(responses: [], then: .timed)], language: "german")
        let dir = try LongAudioTests.inputFolder(harness)
        let file = try LongAudioTests.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 8, tone: 1.5, pause: 1)
        try harness.succeed(["transcribe", dir.path, "--max-chunk-seconds", "6", "--translate"])
        let chunks = try harness.server.requests().filter { $0.task == "transcribe" }.count
        #expect(chunks >= 3)
        #expect(try Self.translationRequests(harness).count == chunks)
        let stored = try #require(try Self.translations(harness)[file.path])
        let starts = stored.segments.compactMap { $0["start"] as? Double }
        let originalStarts = try LongAudioTests.segmentStarts(harness, path: file.path)
        // Each translated region is where its region was heard, on the recording's clock.
        #expect(starts.count == originalStarts.count && starts.count >= 8, "\(starts) vs \(originalStarts)")
        #expect(zip(starts, originalStarts).allSatisfy { abs($0 - $1) < 0.05 }, "\(starts) vs \(originalStarts)")
        #expect((starts.last ?? 0) > 15)
        let text = try #require(stored.text)
        #expect(text.components(separatedBy: "translated region").count - 1 == starts.count, "\(text)")
    }
}

/// `record --live --translate`: each live piece is translated as it comes, and the pieces'
/// translations are stitched like their texts.
@Suite(.onTestThreads) struct LiveTranslationTests {
    @Test func eachLivePieceIsTranslatedAndTheTranslationsAreStitched() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer(rules: [.init(responses: [], then: .says("Guten Tag."))],
                                         translateRules: [.init(responses: [], then: .says("Good day."))], language: "german")
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        // Phrases with pauses: the first piece is cut in a pause after 15 s, the rest at the stop.
        let fed = LiveRecordTests.phrases(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed + CaptureFixtures.silence(sampleRate: 16000, seconds: 1),
                                     sampleRate: 16000, channels: 1)
        defer { feeder.stop() }
        let home = folder.path("home")
        let result = try VoicejournalBinary(home: home, environment: microphone.environment.merging([
            "OPENAI_BASE_URL": stub.baseURL]) { $1 })
            .run(["record", "--device", microphone.name, "--live", "--translate", "--no-meter", "--max-duration", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try stub.requests()
        let pieces = requests.filter { $0.task == "transcribe" }.compactMap(LiveRecordTests.piece)
        let translated = requests.filter { $0.task == "translate" }.compactMap(LiveRecordTests.piece)
        #expect(pieces.count >= 2)
        #expect(translated.sorted() == pieces.sorted())
        let row = try #require(try CaptureDatabase.rows(home: home, "SELECT text, translation FROM transcript").first)
        #expect(row["translation"] as? String == Array(repeating: "Good day.", count: pieces.count).joined(separator: " "))
    }
}
