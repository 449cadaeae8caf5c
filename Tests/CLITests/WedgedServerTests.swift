import Foundation
import Testing
import VoiceJournalTestSupport

/// A server that takes the upload and never answers: every upload has an answer deadline
/// (short here, through the environment), a missed one takes the server out like an
/// unreachable one (probed without spending the job's attempts, its jobs handed to the
/// others at once), and `record --live` keeps its promise (saved, queued, exit 0).
@Suite(.onTestThreads) struct WedgedServerTests {
    /// Deadlines short enough for a test: one second for any answer, whatever the audio.
    static let shortDeadline = ["VOICEJOURNAL_ANSWER_TIMEOUT": "1", "VOICEJOURNAL_ANSWER_TIMEOUT_PER_AUDIO_SECOND": "0"]

    /// Waits for the command for at most `seconds`; kills it (and reports nil) if it is still running.
    static func bounded(_ running: RunningCommand, seconds: Double) -> CommandResult? {
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        guard !running.process.isRunning else {
            running.signal(SIGKILL)
            _ = running.wait()
            return nil
        }
        return running.wait()
    }

    @Test func aServerThatNeverAnswersEndsTheRunInBoundedTimeWithNoAttemptSpent() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .hang)], environment: Self.shortDeadline)
        let folder = try harness.tones(["a.wav", "b.wav"], in: "in", seconds: 1)

        let started = Date()
        let result = try #require(Self.bounded(try harness.binary.start(["transcribe", folder.path]), seconds: 60),
                                  "the run against a server that never answers did not end within 60 s")
        let wall = Date().timeIntervalSince(started)

        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("did not answer"), "\(result.stderr)")
        #expect(result.stderr.contains("stay queued"), "\(result.stderr)")
        #expect(wall < 45, "\(wall) s")
        let jobs = try queryDatabase(harness.database, "SELECT state, attempts FROM job")
        #expect(jobs.count == 2)
        #expect(jobs.allSatisfy { $0[0] as? String == "queued" }, "\(jobs)")
        #expect(jobs.allSatisfy { $0[1] as? Int64 == 0 }, "no attempt spent on the probes: \(jobs)")
        #expect(try harness.server.requests().count >= 2, "the probes were uploads")
    }

    @Test func aWedgedPoolMemberHandsItsJobsToTheGoodOne() throws {
        let harness = try TranscribeHarness(environment: Self.shortDeadline)
        let wedged = try StubWhisperServer(rules: [.init(responses: [], then: .hang)])
        let good = try StubWhisperServer(delay: 0.02)
        let members = [
            EndpointPoolTests.Member(server: wedged, concurrency: 2, delay: 1),
            EndpointPoolTests.Member(server: good, concurrency: 2, delay: 0.02),
        ]
        let files = 40
        let folder = try harness.audio(files)
        let binary = try EndpointPoolTests.binary(harness, pool: members)

        let started = Date()
        let result = try #require(Self.bounded(try binary.start(["transcribe", folder.path, "--json"]), seconds: 90),
                                  "the pool run did not end within 90 s")
        let wall = Date().timeIntervalSince(started)

        #expect(result.status == 0, "\(result.stderr)")
        try EndpointPoolTests.transcribedOnce(harness, files: files)
        #expect(wall < 20, "the good endpoint took the jobs at once: \(wall) s")
        let attempts = try queryDatabase(harness.database, "SELECT max(attempts) FROM job")
        #expect(attempts.first?[0] as? Int64 == 1, "no attempt spent on the wedged endpoint")
        #expect(try good.requests().count == files)
        let json = try #require(try result.json() as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect((endpoints.first?["failures"] as? Int ?? 0) >= 1, "\(endpoints)")
        #expect(endpoints.first?["state"] as? String != "up", "\(endpoints)")
    }

    @Test func recordLiveAgainstAServerThatNeverAnswersSavesAndQueuesTheTake() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer(rules: [.init(responses: [], then: .hang)])
        let tone = SyntheticVoice.pcm16(seconds: 3, dbfs: -20, pitchHz: 220)
        let microphone = try VirtualMicrophone(in: folder.url, samples: tone)
        let home = folder.path("home")
        let binary = VoicejournalBinary(home: home, environment: microphone.environment.merging(
            Self.shortDeadline.merging(["OPENAI_BASE_URL": stub.baseURL, "VOICEJOURNAL_RETRY_BASE": "0.05"]) { $1 }) { $1 })

        let result = try #require(Self.bounded(try binary.start(
            ["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "3"]), seconds: 60),
            "record --live did not end within 60 s")

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Saved recording"), "\(result.stdout)")
        #expect(result.stderr.contains("transcription is queued"), "\(result.stderr)")
        let jobs = try CaptureDatabase.rows(home: home, "SELECT state, attempts FROM job WHERE kind = 'transcribe'")
        #expect(jobs.count == 1 && jobs.first?["state"] as? String == "queued", "\(jobs)")
        #expect(try stub.requests().count >= 1, "the take was sent")
    }
}
