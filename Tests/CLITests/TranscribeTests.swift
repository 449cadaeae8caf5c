import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal transcribe` as a user runs it, against the stub server on 127.0.0.1.
@Suite(.onTestThreads) struct TranscribeTests {
    @Test func transcribesTheGoodFilesOfAMixedFolderAndReportsEachBadOne() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let odd = try makeTone(at: dir.appendingPathComponent("Grüße vom Großvater – día 1.wav"), frequency: 880)
        try Data("shopping list".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data(repeating: 0xFF, count: 4096).write(to: dir.appendingPathComponent("cover.jpg"))
        try Data().write(to: dir.appendingPathComponent("empty.wav"))
        try Data(try Data(contentsOf: odd).prefix(30)).write(to: dir.appendingPathComponent("truncated.wav"))

        let result = try harness.binary.run(["transcribe", dir.path])
        // Every good file is transcribed; the skipped ones make it exit 1, so a script can tell.
        #expect(result.status == 1, "\(result.stderr)")
        let skipLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("skipped ") }
        #expect(skipLines.count == 4)
        #expect(result.stderr.contains("skipped \(dir.path)/notes.txt: not audio"))
        #expect(result.stderr.contains("skipped \(dir.path)/cover.jpg: not audio"))
        #expect(result.stderr.contains("skipped \(dir.path)/empty.wav: empty file"))
        #expect(result.stderr.contains("skipped \(dir.path)/truncated.wav: not a readable WAV file"))
        #expect(result.stdout.contains("Transcribed 3 of 3 files (0 failed, 4 skipped)"))

        let transcripts = try harness.transcripts()
        #expect(transcripts.count == 3)
        #expect(transcripts[odd.path]?.text == "Transcript of Grüße vom Großvater – día 1.")
        let names = try harness.server.requests().compactMap(\.file?.filename)
        #expect(names.contains("Grüße vom Großvater – día 1.wav"))
    }

    @Test func aNamedPathThatIsNotAudioExits1AfterDoingTheRest() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        let result = try harness.binary.run(["transcribe", "\(dir.path)/clip00.wav", harness.folder.path("nope.wav").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nope.wav: no such file or folder"))
        #expect(try harness.transcripts()["\(dir.path)/clip00.wav"]?.count == 1)
    }

    @Test func writesSidecarsFromTheStoredSegmentsAndMakesJournalEntries() throws {
        let harness = try TranscribeHarness()
        // As long as the stub's answer (0–1.5 s and 1.5–3.25 s), which it fits to the audio.
        let dir = try harness.audio(2, seconds: 3.25)
        let unknown = try harness.binary.run(["transcribe", dir.path, "--journal", "Family stories"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("journal create"))
        #expect(try harness.server.requests().isEmpty)
        #expect(try harness.binary.run(["journal", "create", "Family stories"]).status == 0)
        let result = try harness.binary.run(["transcribe", dir.path, "--sidecar", "srt,vtt,txt,json", "--journal", "Family stories"])
        #expect(result.status == 0, "\(result.stderr)")
        let srt = try String(contentsOf: dir.appendingPathComponent("clip00.srt"), encoding: .utf8)
        #expect(srt == "1\n00:00:00,000 --> 00:00:01,500\nTranscript of\n\n2\n00:00:01,500 --> 00:00:03,250\nclip00.\n")
        let vtt = try String(contentsOf: dir.appendingPathComponent("clip01.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nTranscript of\n"))
        #expect(try String(contentsOf: dir.appendingPathComponent("clip01.txt"), encoding: .utf8) == "Transcript of clip01.\n")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("clip00.json").path))

        let entries = try queryDatabase(harness.database, """
            SELECT entry.kind, entry.title FROM entry JOIN journal ON journal.id = entry.journalId
            JOIN recording ON recording.entryId = entry.id WHERE journal.name = 'Family stories' ORDER BY entry.title
            """)
        #expect(entries.map { $0.compactMap { $0 as? String } } == [["voice", "clip00.wav"], ["voice", "clip01.wav"]])
        // The transcript is in the search index.
        let hits = try queryDatabase(harness.database, "SELECT count(*) FROM search_index WHERE search_index MATCH 'clip01' AND ownerKind = 'transcript'")
        #expect(hits.first?.first as? Int == 1)
    }

    @Test func theSameAudioIsUploadedOnceHoweverOftenItIsGiven() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("clip00.wav"), to: dir.appendingPathComponent("copy of clip00.wav"))
        #expect(try harness.binary.run(["transcribe", dir.path]).status == 0)
        let again = try harness.binary.run(["transcribe", dir.path, "--sidecar", "txt"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("3 already done before"))
        #expect(try harness.server.requests().count == 2)
        // The copy still gets its sidecar, from the one stored transcript.
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("copy of clip00.txt").path))
    }

    @Test func noWaitOnlyQueuesAndQueueRunFinishes() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(3)
        // No key and a remote server would be a configuration error, but queueing needs neither.
        let queued = try harness.binary.run(["transcribe", dir.path, "--no-wait"],
                                            environment: ["OPENAI_BASE_URL": "https://api.openai.com/v1"])
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.stdout.contains("Queued 3 files"))
        #expect(try harness.server.requests().isEmpty)
        let status = try #require(try harness.binary.run(["queue", "status", "--json"]).json() as? [String: Any])
        #expect(status["queued"] as? Int == 3)

        let run = try harness.binary.run(["queue", "run", "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Transcribed 3 files, 0 failed"))
        #expect(try harness.everyFileTranscribedOnce(in: dir))
    }

    @Test func uploadsBeginWhileTheRestOfTheFolderIsStillBeingQueued() async throws {
        let harness = try TranscribeHarness()
        // Enough files that queueing them all takes a while (about 0.15 s in a debug build).
        // Made and run on a thread of their own: seconds of blocking work stay off the test pool.
        let dir = try await onOwnThread { try harness.audio(200) }
        let run = try await onOwnThread { try harness.binary.run(["transcribe", dir.path, "--jobs", "2"]) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // The first upload reached the server before the last file's recording was stored:
        // queueing (probing, hashing, storing) and uploading overlap.
        let firstRequest = try #require(try harness.server.requests().map(\.receivedAt).min())
        let lastStored = try #require(try queryDatabase(harness.database, "SELECT max(createdAt) FROM recording").first?.first as? String)
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        format.timeZone = TimeZone(identifier: "UTC")
        let lastStoredAt = try #require(format.date(from: lastStored)).timeIntervalSince1970
        #expect(firstRequest < lastStoredAt, "first upload at \(firstRequest), last file queued at \(lastStoredAt)")
    }

    @Test func aMissingKeyForARemoteServerIsAConfigurationError() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        let result = try harness.binary.run(["transcribe", dir.path],
                                            environment: ["OPENAI_BASE_URL": "https://api.openai.com/v1", "OPENAI_API_KEY": ""])
        #expect(result.status == 3)
        #expect(result.stderr.contains("set OPENAI_API_KEY"))
        #expect(!FileManager.default.fileExists(atPath: harness.database.path))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        for arguments in [["--sidecar", "srt,docx"], ["--jobs", "0"], ["--language", "english"]] {
            let result = try harness.binary.run(["transcribe", dir.path] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
        #expect(try harness.server.requests().isEmpty)
    }

    @Test func ctrlCLeavesUnfinishedFilesQueuedAndExits130() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [.slow(30)])])
        let dir = try harness.audio(3)
        let running = try harness.binary.start(["transcribe", dir.path, "--jobs", "2"])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let rows = try? queryDatabase(harness.database, "SELECT count(*) FROM job WHERE state = 'running'"),
               rows.first?.first as? Int == 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 130)
        #expect(result.stderr.contains("interrupted"))
        let states = try harness.jobStates()
        #expect(states.count == 3 && states.values.allSatisfy { $0 == "queued" })
    }
}
