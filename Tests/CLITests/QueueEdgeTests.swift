import Foundation
import Testing
import VoiceJournalTestSupport

/// The queue's smaller promises: a slow pool member leaves the last jobs to faster ones,
/// numeric options are bounded, one server named twice is one endpoint, a lease no runner
/// would grant does not hold a job forever, and an endpoint's upload errors are not read as
/// failed files.
@Suite(.onTestThreads) struct QueueEdgeTests {
    @Test func aSlowPoolMemberLeavesTheLastJobsToTheFastOne() throws {
        let harness = try TranscribeHarness()
        let slow = try StubWhisperServer(delay: 5)
        let fast = try StubWhisperServer(delay: 0.05)
        let members = [
            EndpointPoolTests.Member(server: slow, concurrency: 1, delay: 5),
            EndpointPoolTests.Member(server: fast, concurrency: 1, delay: 0.05),
        ]
        let files = 30
        let folder = try harness.audio(files)
        let binary = try EndpointPoolTests.binary(harness, pool: members)

        let started = Date()
        let result = try binary.run(["transcribe", folder.path])
        let wall = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        try EndpointPoolTests.transcribedOnce(harness, files: files)
        // Its first upload cannot be avoided (nothing is known of its speed); a second one
        // would end the run 5 s after the fast one could have.
        #expect(try slow.requests().count == 1)
        #expect(wall < 8.5, "the run ends with the fast endpoint: \(wall) s")
    }

    @Test(arguments: [
        ["transcribe", "FOLDER", "--max-chunk-seconds", "1e300", "--max-request-bytes", "9223372036854775807", "--upload-codec", "opus"],
        ["transcribe", "FOLDER", "--max-chunk-seconds", "1e300"],
        ["transcribe", "FOLDER", "--max-request-bytes", "9223372036854775807"],
        ["transcribe", "FOLDER", "--max-chunk-seconds", "inf"],
        ["transcribe", "FOLDER", "--jobs", "99999999999999999999"],
        ["queue", "run", "--max-chunk-seconds", "1e300"],
        ["queue", "run", "--jobs", "1000000"],
        ["record", "--max-duration", "1e300"],
        ["record", "--stop-on-silence", "1e300"],
        ["record", "--silence-threshold=-1e300"],
    ])
    func numericOptionsOutOfRangeAreUsageErrors(arguments: [String]) throws {
        let harness = try TranscribeHarness()
        let folder = try harness.tones(["a.wav"], in: "in", seconds: 30)
        let result = try harness.binary.run(arguments.map { $0 == "FOLDER" ? folder.path : $0 })
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
        let options = arguments.filter { $0.hasPrefix("--") && $0 != "--upload-codec" }.map { String($0.split(separator: "=")[0]) }
        #expect(options.contains { result.stderr.contains($0) }, "the message names the option: \(result.stderr)")
        #expect(try harness.server.requests().isEmpty, "nothing was uploaded")
    }

    @Test func theSameServerTwiceIsOneEndpointWithAWarning() throws {
        let harness = try TranscribeHarness()
        let folder = try harness.audio(6)
        var binary = harness.binary
        binary.environment["OPENAI_BASE_URL"] = ""
        try binary.writeConfig("""
            [[endpoint]]
            base_url = "\(harness.server.baseURL)"
            concurrency = 2

            [[endpoint]]
            base_url = "\(harness.server.baseURL.replacingOccurrences(of: "http://", with: "HTTP://"))/"
            concurrency = 2
            """)
        let result = try binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("repeats an earlier [[endpoint]]"), "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints.count == 1, "\(endpoints)")
        #expect(try harness.server.requests().count == 6)
    }

    /// A journal imported (or edited) with a job `running` under a lease that ends in 2999:
    /// no runner grants such a lease, so it counts as expired and the job is done.
    @Test func aJobLeasedFarIntoTheFutureIsTakenBack() throws {
        let harness = try TranscribeHarness()
        let folder = try harness.tones(["a.wav"], in: "in", seconds: 1)
        try harness.succeed(["transcribe", "--no-wait", folder.path])
        _ = try CaptureDatabase.rows(home: harness.folder.path("home"), """
            UPDATE job SET state = 'running', attempts = 1, leaseOwner = 'another-machine:4242:abc',
                leaseExpiresAt = '2999-01-01 00:00:00.000'
            """)
        let result = try harness.succeed(["queue", "run"])
        let states = try harness.jobStates()
        #expect(states.values.allSatisfy { $0 == "done" }, "\(states) \(result.stderr)")
        #expect(try harness.transcripts().values.allSatisfy { $0.count == 1 })
    }

    /// A pool member killed half-way: its uploads that failed are not files that failed, and
    /// the table says what its count is.
    @Test func anEndpointsUploadErrorsAreNotReadAsFailedFiles() throws {
        let harness = try TranscribeHarness()
        let members = (0..<2).map { _ in
            EndpointPoolTests.Member(server: try! StubWhisperServer(delay: 0.05), concurrency: 2, delay: 0.05)
        }
        let files = 60
        let folder = try harness.audio(files)
        let binary = try EndpointPoolTests.binary(harness, pool: members)
        let run = try binary.start(["transcribe", folder.path])
        let victim = members[1].server
        _ = try victim.waitForRequests(files / 6, timeout: 60)
        victim.kill()
        let result = run.wait()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(0 failed"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAILED"), "\(result.stdout)")
        #expect(result.stdout.contains("UPLOAD ERRORS"), "\(result.stdout)")
        #expect(result.stdout.contains("files that failed for good are counted as failed above"), "\(result.stdout)")
    }
}
