import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal transcribe` against a server that misbehaves on purpose. Each retryable
/// fault hits every file once; the run must still end with each file transcribed exactly once.
@Suite(.onTestThreads) struct TranscribeFaultTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let behaviour: StubWhisperServer.Behaviour
        var testDescription: String { name }
    }

    @Test(arguments: [
        Fault(name: "500", behaviour: .error(status: 500)),
        Fault(name: "503", behaviour: .error(status: 503, message: "Service Unavailable")),
        Fault(name: "connection reset mid-response", behaviour: .reset),
        Fault(name: "slower than the timeout", behaviour: .slow(4)),
        Fault(name: "malformed JSON", behaviour: .malformed),
    ])
    func retryableFaultsEndWithEveryFileTranscribedOnce(fault: Fault) throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [fault.behaviour])],
                                            environment: ["VOICEJOURNAL_HTTP_TIMEOUT": "1"])
        let dir = try harness.audio(4)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        #expect(result.stderr.contains("retrying"))
        // A slow answer is logged when the server finally sends it, after the client gave up.
        let requests = try harness.server.waitForRequests(8)
        #expect(requests.allSatisfy { $0.problems.isEmpty })
        // Each file: the fault, then one good answer.
        let perFile = Dictionary(grouping: requests, by: { $0.file?.filename ?? "" }).mapValues(\.count)
        #expect(perFile.count == 4 && perFile.values.allSatisfy { $0 == 2 })
    }

    @Test func rateLimitWaitsAsLongAsTheServerAsks() throws {
        let harness = try TranscribeHarness(rules: [
            .init(responses: [.error(status: 429, code: "rate_limit_exceeded", message: "Rate limit reached", retryAfter: 1.2)]),
        ])
        let dir = try harness.audio(2)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // Backoff alone would retry within ~10 ms here; the retry-after header says 1.2 s.
        for (_, requests) in Dictionary(grouping: try harness.server.requests(), by: { $0.file?.filename ?? "" }) {
            #expect(requests.count == 2)
            let refused = try #require(requests.first { $0.answer == "429" })
            let retry = try #require(requests.first { $0.answer == "ok" })
            #expect(retry.receivedAt - (refused.respondedAt ?? refused.receivedAt) >= 1.2)
        }
    }

    @Test func aRefusedKeyEndsTheRunAtOnceWithExit3() throws {
        let key = "sk-proj-harness-0123456789abcdef"
        // The server answers 401 and repeats the key in its message, as some proxies do.
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .echoKey)], key: key)
        let dir = try harness.audio(8)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "2"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("OPENAI_API_KEY"))
        #expect(result.stderr.contains("401"))
        // No retry storm: at most one request per worker.
        #expect(try harness.server.requests().count <= 2)
        // The jobs wait in the queue for a fixed key, nothing failed for good.
        #expect(try harness.jobStates().values.allSatisfy { $0 == "queued" })
        // The key went to the server, and nowhere else.
        #expect(try harness.server.requests().allSatisfy { $0.authorizationOk == true })
        #expect(!result.stderr.contains(key) && !result.stdout.contains(key))
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: harness.database.path + suffix))) ?? Data()
            #expect(bytes.range(of: Data(key.utf8)) == nil)
        }
        let list = try harness.binary.run(["queue", "list"])
        #expect(list.stdout.contains("[redacted]") && !list.stdout.contains(key))
    }

    @Test func exhaustedQuotaStopsTheRunToo() throws {
        let harness = try TranscribeHarness(rules: [
            .init(responses: [], then: .error(status: 429, code: "insufficient_quota", message: "You exceeded your current quota")),
        ])
        let dir = try harness.audio(4)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "1"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("quota"))
        #expect(try harness.server.requests().count == 1)
    }

    @Test func aRejectedFileFailsAloneWithTheServersMessage() throws {
        let harness = try TranscribeHarness(rules: [
            .init(match: "clip01", responses: [],
                  then: .error(status: 400, message: "Audio file might be corrupted or unsupported")),
        ])
        let dir = try harness.audio(3)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "2"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("failed: \(dir.path)/clip01.wav"))
        let states = try harness.jobStates()
        #expect(states["\(dir.path)/clip01.wav"] == "failed")
        #expect(states.values.filter { $0 == "done" }.count == 2)
        // Not retried: a 400 is about the file.
        #expect(try harness.server.requests().filter { $0.file?.filename == "clip01.wav" }.count == 1)
        let failed = try harness.binary.run(["queue", "list", "--state", "failed"])
        #expect(failed.stdout.contains("clip01.wav"))
        #expect(failed.stdout.contains("Audio file might be corrupted or unsupported"))
        let json = try #require(try harness.binary.run(["queue", "list", "--state", "failed", "--json"]).json() as? [[String: Any]])
        #expect(json.count == 1)
        #expect((json.first?["lastError"] as? String)?.contains("HTTP 400") == true)
    }

    @Test func aLocalServerThatIsNotRunningIsSaidAtOnceWithHowToStartIt() throws {
        let port = try closedLoopbackPort()
        // The backoff as it is by default (0.5 s up to 30 s: about 32 s of probing for a busy server).
        let harness = try TranscribeHarness(environment: ["OPENAI_BASE_URL": "http://127.0.0.1:\(port)/v1",
                                                          "VOICEJOURNAL_RETRY_BASE": "0.5"])
        let dir = try harness.audio(2)
        let started = Date()
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "1"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 3)
        // Refused on this machine: nothing runs there, so nothing is waited for.
        #expect(seconds < 10, "took \(seconds) s: \(result.stderr)")
        #expect(!result.stderr.contains("pausing all uploads"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("voicejournal: ") }, "\(result.stderr)")
        #expect(lines.last?.contains("the server is not running: the connection to http://127.0.0.1:\(port)/v1 was refused") == true,
                "\(result.stderr)")
        #expect(lines.last?.contains("start the local one with voicejournal-whisper-server") == true)
        #expect(lines.last?.contains("2 files stay queued") == true)
        #expect(try harness.jobStates().values.allSatisfy { $0 == "queued" })
    }

    @Test func aDeadServerIsReportedOnceAndEveryFileStaysQueuedUntouched() throws {
        let port = try closedLoopbackPort()
        let harness = try TranscribeHarness(environment: ["OPENAI_BASE_URL": "http://127.0.0.1:\(port)/v1"])
        let dir = try harness.audio(200)
        let result = try harness.binary.run(["transcribe", dir.path, "--jobs", "4"])
        #expect(result.status == 3)
        // Not a line per file and retry: the outage once, then one summary.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count < 10, "\(lines.count) lines on stderr:\n\(lines.prefix(20).joined(separator: "\n"))")
        #expect(lines.last?.hasPrefix("voicejournal: the server is not running") == true, "\(result.stderr)")
        #expect(lines.last?.contains("200 files stay queued") == true, "\(result.stderr)")
        // The outage cost no file an attempt.
        let jobs = try queryDatabase(harness.database, "SELECT state, attempts FROM job")
        #expect(jobs.count == 200)
        #expect(jobs.allSatisfy { $0[0] as? String == "queued" && $0[1] as? Int == 0 })
    }

    @Test func aServerThatGoesAwayAndComesBackResumesTheRun() throws {
        // A server that answered and then goes away (a local one restarting) is waited for:
        // probes back off from 0.2 s (about 12 s of patience), so a server up after a second is found.
        // The first server answers clip00 and holds every other upload; it is killed only once
        // the run has stored clip00's transcript (the stub logs an answer before it sends it,
        // so killing at the log could take the answer with it).
        let first = try StubWhisperServer(rules: [.init(match: "clip00", responses: [.ok]),
                                                  .init(responses: [.hang])])
        let port = first.port
        let harness = try TranscribeHarness(environment: ["OPENAI_BASE_URL": "http://127.0.0.1:\(port)/v1",
                                                          "VOICEJOURNAL_RETRY_BASE": "0.2"])
        let dir = try harness.audio(6)
        let run = try harness.binary.start(["transcribe", dir.path, "--jobs", "3"])
        let stored = Date().addingTimeInterval(60)
        while Date() < stored {
            let rows = try? queryDatabase(harness.database, "SELECT count(*) FROM job WHERE state = 'done'")
            if (rows?.first?.first as? Int ?? 0) >= 1 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        first.kill()
        let deadline = Date().addingTimeInterval(30)
        while !run.stderrSoFar.contains("pausing all uploads") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1)
        let server = try StubWhisperServer(port: port)
        let result = run.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "pausing all uploads").count == 2)
        #expect(result.stderr.components(separatedBy: "the server answers again").count == 2)
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // Each file answered once: the one the first server answered, the rest by the second.
        let answeredFirst = try first.requests().filter { $0.file != nil && $0.answer == "ok" }.count
        let answeredThen = try server.requests().count
        #expect(answeredFirst == 1 && answeredThen == 5, "first \(answeredFirst), then \(answeredThen)")
        // An upload the dying server held is an attempt made (it went in whole); attempts
        // made while the server was away were handed back: one attempt for every other file.
        let held = Set(try first.requests().filter { $0.answer == "hang" }.compactMap(\.file?.filename))
        #expect((2...3).contains(held.count), "\(held)")
        let attempts = try queryDatabase(harness.database, "SELECT recording.path, attempts FROM job JOIN recording ON recording.id = job.recordingId")
        for row in attempts {
            let name = URL(fileURLWithPath: try #require(row[0] as? String)).lastPathComponent
            let count = try #require(row[1] as? Int)
            #expect(held.contains(name) ? (1...2).contains(count) : count == 1, "\(name): \(count) attempts")
        }
    }
}
