import Foundation
import Testing
import VoiceJournalTestSupport

/// `record --live` interrupted while it waits for the transcript: exit 130, the saved take
/// reported (as text, or as the one `--json` document), its transcription left queued.
@Suite(.onTestThreads) struct LiveInterruptTests {
    /// Records a 3 s take against a server that takes the upload and never answers, and sends
    /// SIGINT once the upload is in (the command then waits for the transcript).
    static func interruptedWhileWaiting(json: Bool) throws -> (result: CommandResult, home: URL, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer(rules: [.init(responses: [], then: .hang)])
        let tone = SyntheticVoice.pcm16(seconds: 3, dbfs: -20, pitchHz: 220)
        let microphone = try VirtualMicrophone(in: folder.url, samples: tone)
        let home = folder.path("home")
        let binary = VoicejournalBinary(home: home, environment: microphone.environment.merging(
            ["OPENAI_BASE_URL": stub.baseURL]) { $1 })
        let running = try binary.start(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "3"]
                                       + (json ? ["--json"] : []))
        let uploads = try stub.waitForRequests(1, timeout: 30)
        #expect(uploads.count == 1, "the take was uploaded")
        Thread.sleep(forTimeInterval: 0.3)
        running.signal(SIGINT)
        let result = try #require(WedgedServerTests.bounded(running, seconds: 20), "record --live did not stop on SIGINT")
        return (result, home, folder)
    }

    static func jobState(home: URL) throws -> String? {
        try CaptureDatabase.rows(home: home, "SELECT state FROM job WHERE kind = 'transcribe'").first?["state"] as? String
    }

    @Test func interruptedWhileWaitingPrintsTheSavedTakeAndLeavesItQueued() throws {
        let (result, home, folder) = try Self.interruptedWhileWaiting(json: false)
        defer { withExtendedLifetime(folder) {} }
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stdout.contains("Saved recording"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("file: "), "stdout: \(result.stdout)")
        #expect(result.stderr.contains("stays queued"), "\(result.stderr)")
        #expect(try Self.jobState(home: home) == "queued")
    }

    @Test func interruptedWhileWaitingWithJSONPrintsTheDocument() throws {
        let (result, home, folder) = try Self.interruptedWhileWaiting(json: true)
        defer { withExtendedLifetime(folder) {} }
        #expect(result.status == 130, "\(result.stderr)")
        let document = try #require(try result.json() as? [String: Any], "stdout: \(result.stdout)")
        #expect(document["recordingId"] as? Int != nil)
        #expect(document["transcript"] == nil)
        #expect(result.stderr.contains("stays queued"), "\(result.stderr)")
        #expect(try Self.jobState(home: home) == "queued")
    }
}
