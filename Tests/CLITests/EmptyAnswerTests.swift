import Foundation
import Testing
import VoiceJournalTestSupport

/// An endpoint answering 200 with no text for audio that holds speech must not empty
/// transcripts for good: the answer is suspect (retried, counted against the endpoint), a
/// done recording can be transcribed again (the old transcript kept until the new one is
/// stored), and audio where no speech is heard at all is said so, not just "done".
@Suite(.onTestThreads) struct EmptyAnswerTests {
    @Test func anEndpointAnsweringEmptyTextLeavesNoEmptyTranscriptAndIsCounted() throws {
        let harness = try TranscribeHarness()
        let empty = try StubWhisperServer(rules: [.init(responses: [], then: .empty)])
        let good = try StubWhisperServer(delay: 0.02)
        let members = [
            EndpointPoolTests.Member(server: empty, concurrency: 2, delay: 0.01),
            EndpointPoolTests.Member(server: good, concurrency: 2, delay: 0.02),
        ]
        let files = 30
        let folder = try harness.audio(files)
        let binary = try EndpointPoolTests.binary(harness, pool: members)

        let result = try binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let transcripts = try harness.transcripts()
        #expect(transcripts.count == files)
        let emptied = transcripts.filter { $0.value.text.isEmpty }.map(\.key)
        #expect(emptied.isEmpty, "files with speech stored empty: \(emptied.count)")
        #expect(try empty.requests().count >= 1, "the empty endpoint was tried")
        let json = try #require(try result.json() as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        let counted = endpoints.first?["emptyAnswers"] as? Int ?? 0
        let emptyRequests = try empty.requests().count
        #expect(counted >= 1 && counted == emptyRequests, "\(endpoints)")
        #expect(endpoints.first?["state"] as? String != "up", "the empty endpoint is out: \(endpoints)")
    }

    /// With one endpoint there is no one else to ask: the empty text is stored, but flagged,
    /// counted, and can be done again.
    @Test func aLoneEndpointsEmptyAnswerIsFlaggedAndCanBeDoneAgain() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [.empty])])
        let folder = try harness.tones(["a.wav"], in: "in", seconds: 1)
        let file = folder.appendingPathComponent("a.wav").path
        let result = try harness.binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("answered with no text"), "\(result.stderr)")
        let jobId = try #require(try queryDatabase(harness.database, "SELECT id FROM job").first?[0] as? Int64)
        #expect(result.stderr.contains("queue retry --done \(jobId)"), "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect((json["suspect"] as? [[String: Any]])?.first?["path"] as? String == file, "\(json)")
        #expect((json["endpoints"] as? [[String: Any]])?.first?["emptyAnswers"] as? Int == 1, "\(json)")
        #expect(try harness.transcripts()[file]?.text == "")

        try harness.succeed(["queue", "retry", "--done", String(jobId)])
        try harness.succeed(["queue", "run"])
        #expect(try harness.transcripts()[file]?.text == "Transcript of a.")
    }

    /// A done recording transcribed again keeps its transcript until the new one is stored,
    /// and keeps it when the new attempt fails.
    @Test func aDoneRecordingIsTranscribedAgainOnlyReplacingItsTranscriptWithANewOne() throws {
        let harness = try TranscribeHarness()
        let folder = try harness.tones(["a.wav"], in: "in", seconds: 1)
        let file = folder.appendingPathComponent("a.wav").path
        try harness.succeed(["transcribe", folder.path])
        #expect(try harness.transcripts()[file]?.text == "Transcript of a.")
        let jobId = try #require(try queryDatabase(harness.database, "SELECT id FROM job").first?[0] as? Int64)

        // Without --done a done job is refused, as before.
        let refused = try harness.binary.run(["queue", "retry", String(jobId)])
        #expect(refused.status != 0 && refused.stderr.contains("--done"), "\(refused.stderr)")

        // Again, and the new attempt fails: the old transcript stays.
        let failing = try StubWhisperServer(rules: [.init(responses: [], then: .error(status: 400, message: "no"))])
        let failed = try harness.binary.run(["transcribe", "--again", folder.path], environment: ["OPENAI_BASE_URL": failing.baseURL])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try failing.requests().count == 1, "it was uploaded again")
        #expect(try harness.transcripts()[file]?.text == "Transcript of a.")
        #expect(try harness.transcripts()[file]?.count == 1)

        // `queue retry --done` then `queue run`: the new transcript replaces the old one.
        try harness.succeed(["queue", "retry", "--failed"])
        try harness.succeed(["queue", "run"])
        try harness.succeed(["queue", "retry", "--done", String(jobId)])
        #expect(try harness.jobStates()[file] == "queued")
        #expect(try harness.transcripts()[file]?.text == "Transcript of a.", "kept while the new one is to come")
        let echo = try StubWhisperServer(rules: [.init(responses: [], then: .echoSHA)])
        try harness.succeed(["queue", "run"], environment: ["OPENAI_BASE_URL": echo.baseURL])
        let replaced = try #require(try harness.transcripts()[file])
        #expect(replaced.count == 1)
        #expect(replaced.text.hasPrefix("Transcript of a. sha256:"), "\(replaced.text)")
        // The search index follows the new text.
        let hits = try harness.binary.run(["search", "sha256", "--json"])
        #expect(hits.status == 0 && hits.stdout.contains("sha256"), "\(hits.stdout) \(hits.stderr)")
    }

    /// Speech so quiet that no speech is measured in it (peaks near −45 dBFS) is stored empty
    /// without an upload, as before, but the run says so and how to send it anyway.
    @Test func veryQuietSpeechIsFlaggedNotSilentlyStoredEmpty() throws {
        let harness = try TranscribeHarness()
        let folder = harness.folder.path("quiet")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let loud = folder.appendingPathComponent("loud.wav")
        let quiet = folder.appendingPathComponent("whisper.wav")
        try CaptureFixtures.speak("This is said very quietly into the microphone.", to: loud)
        try runTool("sox", [loud.path, "-r", "16000", "-c", "1", "-b", "16", quiet.path, "norm", "-45"])
        try FileManager.default.removeItem(at: loud)

        let result = try harness.binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no speech heard"), "\(result.stderr)")
        #expect(result.stderr.contains("--no-trim"), "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        let notes = try #require(json["suspect"] as? [[String: Any]], "\(json)")
        #expect(notes.first?["path"] as? String == quiet.path)
        // Sent whole on request: the server hears it.
        try harness.succeed(["transcribe", "--again", "--no-trim", folder.path])
        #expect(try harness.transcripts()[quiet.path]?.text == "Transcript of whisper.")
    }
}
