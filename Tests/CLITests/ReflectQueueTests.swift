import Foundation
import Testing
import VoiceJournalTestSupport

/// Automatic reflection (`reflect = "auto"`, `record --reflect`): a job in the persistent
/// queue per entry, run by `queue run` after the transcriptions, with the transcription
/// queue's rules for faults — against stub chat servers over real HTTP.
@Suite(.onTestThreads) struct ReflectQueueTests {
    /// Entries whose words a stub rule can tell apart.
    static let texts = ["Alpha went to the market today.", "Bravo fixed the old bicycle.", "Charlie planted tomatoes.",
                        "Delta read a long book."]

    /// A home whose config asks for automatic reflection on `chatURL` (and, with `pool`, more
    /// servers), with `count` typed entries added after it was written. The transcription
    /// endpoint is a loopback address nothing listens on: these runs have nothing to upload.
    static func journal(_ folder: TemporaryFolder, chatURL: String, pool: [String] = [], count: Int = 2,
                        environment: [String: String] = [:]) throws -> VoicejournalBinary {
        let binary = VoicejournalBinary(home: folder.path("home"), environment: [
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "VOICEJOURNAL_RETRY_BASE": "0.2", "VOICEJOURNAL_ANSWER_TIMEOUT": "1",
        ].merging(environment) { $1 })
        var config = "[chat]\nbase_url = \"\(chatURL)\"\nreflect = \"auto\"\n"
        for (index, url) in pool.enumerated() { config += "\n[[chat.endpoint]]\nbase_url = \"\(url)\"\npriority = \(-index)\n" }
        _ = try binary.writeConfig(config)
        for text in texts.prefix(count) { #expect(try binary.run(["entry", "add", "--quiet", "--text", text]).status == 0) }
        return binary
    }

    /// How many reflections each entry has, by entry id.
    static func reflectionsPerEntry(_ binary: VoicejournalBinary) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for row in try CaptureDatabase.rows(home: binary.home, "SELECT entryId, count(*) AS n FROM reflection GROUP BY entryId") {
            counts[row["entryId"] as? Int ?? 0] = row["n"] as? Int
        }
        return counts
    }

    static func reflectionStatus(_ binary: VoicejournalBinary) throws -> [String: Any] {
        let status = try #require(try binary.run(["queue", "status", "--json"]).json() as? [String: Any])
        return try #require(status["reflections"] as? [String: Any])
    }

    @Test func autoReflectionQueuesEachNewEntryAndQueueRunReflectsEachExactlyOnce() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        // An entry from before the config asked for it gets no job.
        let before = VoicejournalBinary(home: folder.path("home"))
        #expect(try before.run(["entry", "add", "--quiet", "--text", "Written before auto."]).status == 0)
        let binary = try Self.journal(folder, chatURL: server.baseURL, count: 3)
        let queued = try Self.reflectionStatus(binary)
        #expect(queued["queued"] as? Int == 3 && queued["done"] as? Int == 0)
        #expect(try binary.run(["queue", "status"]).stdout.contains("Reflections: 3 queued"))
        #expect(try server.completions().isEmpty, "queueing sends nothing")

        let run = try binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Reflections: 3 made."))
        #expect(try server.completions().count == 3)
        #expect(try Self.reflectionsPerEntry(binary) == [2: 1, 3: 1, 4: 1])
        #expect(try Self.reflectionStatus(binary)["done"] as? Int == 3)
        #expect(try binary.run(["entry", "show", "2"]).stdout.contains("stub encouragement"))

        // Nothing is asked twice.
        let again = try binary.run(["queue", "run"])
        #expect(again.status == 0 && !again.stdout.contains("Reflections:"), "\(again.stdout)")
        #expect(try server.completions().count == 3)
    }

    @Test func passingFaultsAreTriedAgainAfterTheirWaitAndEachEntryGetsOneReflection() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [
            .init(match: "Alpha", responses: [.error(status: 429, code: "rate_limit_exceeded", message: "slow down", retryAfter: 1)]),
            .init(match: "Bravo", responses: [.error(status: 500, message: "boom")]),
            .init(match: "Charlie", responses: [.reset]),
            .init(match: "Delta", responses: [.hang]),
        ])
        let binary = try Self.journal(folder, chatURL: server.baseURL, count: 4)
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Reflections: 4 made."), "\(run.stdout)")
        #expect(run.stderr.contains("will be tried again"))
        #expect(try Self.reflectionsPerEntry(binary) == [1: 1, 2: 1, 3: 1, 4: 1])
        let requests = try server.completions()
        for name in ["Alpha", "Bravo", "Charlie", "Delta"] {
            #expect(requests.filter { $0.lastUserContent?.contains(name) == true }.count == 2, "\(name): one fault, one answer")
        }
        let alpha = requests.filter { $0.lastUserContent?.contains("Alpha") == true }
        if alpha.count == 2 { #expect(alpha[1].receivedAt - alpha[0].receivedAt >= 0.95, "never sooner than Retry-After") }
    }

    @Test func aRefusedKeyStopsTheRunAndTheJobsStayQueued() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(expectedKey: "sk-right-one")
        let binary = try Self.journal(folder, chatURL: server.baseURL, environment: ["VOICEJOURNAL_CHAT_API_KEY": "sk-wrong-secret"])
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("HTTP 401") && !run.stderr.contains("sk-wrong-secret"))
        #expect(try server.completions().count == 1, "the first refusal stops the run")
        let status = try Self.reflectionStatus(binary)
        #expect(status["queued"] as? Int == 2 && status["failed"] as? Int == 0)

        let good = try binary.run(["queue", "run"], environment: ["VOICEJOURNAL_CHAT_API_KEY": "sk-right-one"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try Self.reflectionsPerEntry(binary) == [1: 1, 2: 1])
    }

    @Test func aRequestTheServerRefusesFailsItsJobNotTheRun() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(match: "Alpha", responses: [], then: .error(status: 400, message: "no such thing"))])
        let binary = try Self.journal(folder, chatURL: server.baseURL)
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Reflections: 1 made, 1 failed."), "\(run.stdout)")
        #expect(try Self.reflectionsPerEntry(binary) == [2: 1])
        let status = try Self.reflectionStatus(binary)
        #expect(status["failed"] as? Int == 1 && status["done"] as? Int == 1)
    }

    @Test func aRunKilledMidRequestLeavesNoDuplicateAndTheNextRunFinishes() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer(rules: [.init(match: "Bravo", responses: [.hang])])
        let binary = try Self.journal(folder, chatURL: server.baseURL, count: 3, environment: ["VOICEJOURNAL_ANSWER_TIMEOUT": "300"])
        let first = try binary.start(["queue", "run"])
        // Alpha answered and kept, Bravo's request held by the server: kill the runner there.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let bravoHeld = try server.completions().contains { $0.lastUserContent?.contains("Bravo") == true }
            if bravoHeld, try Self.reflectionsPerEntry(binary)[1] == 1 { break }
            usleep(50_000)
        }
        first.signal(SIGKILL)
        #expect(first.wait().status == 128 + SIGKILL)
        #expect(try Self.reflectionsPerEntry(binary) == [1: 1])
        #expect(try Self.reflectionStatus(binary)["running"] as? Int == 1, "Bravo's lease is held by a dead runner")

        let second = try binary.run(["queue", "run"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Self.reflectionsPerEntry(binary) == [1: 1, 2: 1, 3: 1])
        let requests = try server.completions()
        #expect(requests.filter { $0.lastUserContent?.contains("Alpha") == true }.count == 1, "no request after a success")
        #expect(requests.filter { $0.lastUserContent?.contains("Bravo") == true }.count == 2)
        #expect(requests.filter { $0.lastUserContent?.contains("Charlie") == true }.count == 1)
    }

    @Test func aPoolPassesTheWorkToTheNextServerWhenTheFirstIsNotThere() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        // Nothing listens on port 9 of this machine: the preferred server is out, the next takes it.
        let binary = try Self.journal(folder, chatURL: "http://127.0.0.1:9/v1", pool: [server.baseURL])
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Reflections: 2 made."))
        #expect(run.stderr.contains("127.0.0.1:9"))
        #expect(try server.completions().count == 2)
        // `reflect` itself fails over too, and says so.
        let again = try binary.run(["reflect", "1", "--again"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("did not answer") && again.stdout.contains(server.baseURL))
        #expect(try server.completions().count == 3)
    }

    @Test func aChatServerThatIsNotRunningLeavesTheJobsQueuedAfterTheTranscriptionsReport() throws {
        let folder = try TemporaryFolder()
        let binary = try Self.journal(folder, chatURL: "http://127.0.0.1:9/v1")
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(!run.stdout.isEmpty, "the transcriptions' report comes first")
        #expect(run.stderr.contains("could be reached") && run.stderr.contains("stay queued"), "\(run.stderr)")
        let status = try Self.reflectionStatus(binary)
        #expect(status["queued"] as? Int == 2 && status["failed"] as? Int == 0, "no attempt is spent on an outage")
    }

    @Test func withNoChatServerNamedQueueRunSaysTheReflectionsWait() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"), environment: ["OPENAI_BASE_URL": "http://127.0.0.1:9/v1"])
        _ = try binary.writeConfig("[chat]\nreflect = \"auto\"\n")
        #expect(try binary.run(["entry", "add", "--quiet", "--text", "A day."]).status == 0)
        let run = try binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 queued, waiting for a chat server"))
        #expect(try Self.reflectionStatus(binary)["queued"] as? Int == 1)
    }

    @Test func aLiveTakeWithReflectShowsTheReflectionsOwnEncouragementBeforeItEnds() throws {
        let folder = try TemporaryFolder()
        let whisper = try StubWhisperServer()
        let chat = try StubChatServer()
        let microphone = try VirtualMicrophone(in: folder.url, samples: SyntheticVoice.pcm16(seconds: 2, dbfs: -16, pitchHz: 160)
            + CaptureFixtures.silence(sampleRate: 16000, seconds: 1))
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment.merging([
            "OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_CHAT_URL": chat.baseURL,
        ]) { $1 }, launcher: VoicejournalBinary.onATerminal)
        let result = try binary.run(["record", "--device", microphone.name, "--live", "--reflect", "--no-meter", "--max-duration", "3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("stub encouragement"), "\(result.stdout)")
        #expect(try chat.completions().count == 1)
        #expect(try Self.reflectionStatus(binary)["done"] as? Int == 1)
        // Without --reflect (and no config asking), a take gets no job.
        let plain = try binary.run(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "3"])
        #expect(plain.status == 0)
        #expect(try chat.completions().count == 1)
    }
}

/// `transcribe --journal` with automatic reflection: each entry it makes is reflected on once
/// its transcript is in, and what a script reads on stdout stays the transcripts.
@Suite(.onTestThreads) struct ReflectBatchTests {
    @Test func aBatchIntoAJournalReflectsOnEachEntryItMadeAndLeavesStdoutAlone() throws {
        let folder = try TemporaryFolder()
        let whisper = try StubWhisperServer()
        let chat = try StubChatServer()
        let audio = folder.path("audio")
        try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
        for index in 0..<2 {
            try SyntheticVoice.writeWAV(SyntheticVoice.pcm16(seconds: 1.5 + Double(index), dbfs: -16, pitchHz: 160),
                                        to: audio.appendingPathComponent("clip\(index).wav"))
        }
        let binary = VoicejournalBinary(home: folder.path("home"), environment: ["OPENAI_BASE_URL": whisper.baseURL])
        _ = try binary.writeConfig("[chat]\nbase_url = \"\(chat.baseURL)\"\nreflect = \"auto\"\n")
        #expect(try binary.run(["journal", "create", "Days"]).status == 0)
        let result = try binary.run(["transcribe", audio.path, "--journal", "Days"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("Reflect"), "stdout: \(result.stdout)")
        #expect(result.stderr.contains("Reflections: 2 made."), "\(result.stderr)")
        #expect(try chat.completions().count == 2)
        #expect(try ReflectQueueTests.reflectionsPerEntry(binary) == [1: 1, 2: 1])
        // Without a journal there are no entries, and nothing to reflect on.
        let other = folder.path("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try SyntheticVoice.writeWAV(SyntheticVoice.pcm16(seconds: 2.5, dbfs: -16, pitchHz: 200), to: other.appendingPathComponent("lone.wav"))
        #expect(try binary.run(["transcribe", other.path]).status == 0)
        #expect(try chat.completions().count == 2)
    }
}
