import Foundation
import Testing
import VoiceJournalTestSupport

/// A pool of Whisper endpoints from the config file: work spread by capacity, an endpoint
/// that dies or refuses its key left out while the others finish, `queue status` naming the
/// endpoint of each running job.
@Suite(.onTestThreads) struct EndpointPoolTests {
    /// A stub server of the pool with the concurrency the config file gives it.
    struct Member {
        let server: StubWhisperServer
        let concurrency: Int
        let delay: Double
        var keyVariable: String?
        var priority: Int?
    }

    /// The config file naming each member as an `[[endpoint]]`.
    static func config(_ members: [Member]) -> String {
        members.map { member in
            var table = """
                [[endpoint]]
                base_url = "\(member.server.baseURL)"
                concurrency = \(member.concurrency)

                """
            if let variable = member.keyVariable { table += "api_key_env = \"\(variable)\"\n" }
            if let priority = member.priority { table += "priority = \(priority)\n" }
            return table
        }.joined(separator: "\n")
    }

    /// A binary whose runs use the config file's pool (no base URL in the environment).
    static func binary(_ harness: TranscribeHarness, pool members: [Member]) throws -> VoicejournalBinary {
        var binary = harness.binary
        binary.environment["OPENAI_BASE_URL"] = ""
        try binary.writeConfig(config(members))
        return binary
    }

    static func transcribedOnce(_ harness: TranscribeHarness, files: Int) throws {
        let transcripts = try harness.transcripts()
        #expect(transcripts.count == files)
        #expect(transcripts.values.allSatisfy { $0.count == 1 }, "every file has exactly one transcript")
    }

    /// The most of `requests` in flight at once, and the share of `span` (seconds since the
    /// epoch, as the server logs them) during which at least one was.
    static func occupancy(_ requests: [StubRequest], over span: ClosedRange<Double>) -> (most: Int, busy: Double) {
        var changes: [(time: Double, change: Int)] = []
        for request in requests {
            changes.append((request.receivedAt, 1))
            changes.append((request.respondedAt ?? request.receivedAt, -1))
        }
        // An answer and the next request at the same instant: the answer first.
        changes.sort { $0.time == $1.time ? $0.change < $1.change : $0.time < $1.time }
        var inFlight = 0, most = 0, busy = 0.0, since = span.lowerBound
        for (time, change) in changes {
            if inFlight > 0 { busy += time - since }
            since = time
            inFlight += change
            most = max(most, inFlight)
        }
        return (most, busy / (span.upperBound - span.lowerBound))
    }

    // Near the ideal time (files over the pool's capacity) is said by the servers, not by a
    // stopwatch in the test (a busy machine slows the binary, not the pool's sharing): every
    // endpoint took work in proportion to its capacity, had all its workers in flight at once
    // and never more, and was busy for nearly all of the batch. scripts/bench/bench-pool times it.
    @Test func threeEndpointsShareABatchByCapacityAndEachIsBusyThroughout() throws {
        let harness = try TranscribeHarness()
        let members = [
            Member(server: try StubWhisperServer(delay: 0.1), concurrency: 4, delay: 0.1),
            Member(server: try StubWhisperServer(delay: 0.2), concurrency: 2, delay: 0.2),
            Member(server: try StubWhisperServer(delay: 0.4), concurrency: 2, delay: 0.4),
        ]
        let files = 300
        let folder = try harness.audio(files)
        let binary = try Self.binary(harness, pool: members)

        let result = try binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.transcribedOnce(harness, files: files)

        let counts = try members.map { try $0.server.requests().count }
        #expect(counts.reduce(0, +) == files, "each file uploaded exactly once: \(counts)")
        // Capacity as the run met it: workers over the median latency the binary measured. On
        // a busy machine the binary's own time per upload adds to every endpoint's latency, and
        // most to the fastest one's share (0.1 s measured 0.12 s under load, and it took 209
        // of 300 where its configured capacity says 218); sharing by capacity means by this.
        let reported = try #require((try result.json() as? [String: Any])?["endpoints"] as? [[String: Any]])
        let latencies = reported.map { $0["medianLatency"] as? Double ?? .infinity }
        let met = zip(members, latencies).map { Double($0.concurrency) / $1 }
        for (index, count) in counts.enumerated() {
            let expected = Double(files) * met[index] / met.reduce(0, +)
            #expect(abs(Double(count) - expected) <= 0.2 * expected,
                    "\(members[index].server.baseURL) took \(count) uploads, its capacity says \(expected) (latencies \(latencies))")
        }
        let logs = try members.map { try $0.server.requests() }
        let all = logs.joined()
        let span = try #require(all.map(\.receivedAt).min())...(try #require(all.compactMap(\.respondedAt).max()))
        for (member, log) in zip(members, logs) {
            let (most, busy) = Self.occupancy(log, over: span)
            #expect(most == member.concurrency, "\(member.server.baseURL) had \(most) uploads in flight at most")
            // 0.8 or more on a quiet machine; a loaded one (the CI box running other suites)
            // has measured 0.77, the gaps being the binary's own time between uploads. An
            // endpoint left idle for a stretch of the batch drops far below.
            #expect(busy >= 0.7, "\(member.server.baseURL) was busy for \(busy) of the batch")
        }

        // --json says what each endpoint did, the same as the servers saw.
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["transcribed"] as? Int == files)
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints.map { $0["endpoint"] as? String } == members.map(\.server.baseURL))
        #expect(endpoints.map { $0["files"] as? Int } == counts)
        #expect(endpoints.map { $0["workers"] as? Int } == members.map(\.concurrency))
        for (figures, member) in zip(endpoints, members) {
            let median = try #require(figures["medianLatency"] as? Double)
            #expect(median >= member.delay && median < member.delay + 0.3)
            #expect(figures["failures"] as? Int == 0)
            #expect(figures["state"] as? String == "up")
            #expect((figures["audioSeconds"] as? Double ?? 0) > 0)
        }
    }

    @Test func aServerKilledHalfWayLeavesEveryFileTranscribedWithNoAttemptSpent() throws {
        let harness = try TranscribeHarness()
        let members = (0..<3).map { _ in Member(server: try! StubWhisperServer(delay: 0.05), concurrency: 2, delay: 0.05) }
        let files = 120
        let folder = try harness.audio(files)
        let binary = try Self.binary(harness, pool: members)

        let run = try binary.start(["transcribe", folder.path])
        let victim = members[1].server
        _ = try victim.waitForRequests(files / 6, timeout: 60)
        victim.kill()
        let result = run.wait()

        #expect(result.status == 0, "\(result.stderr)")
        try Self.transcribedOnce(harness, files: files)
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning: endpoint \(victim.baseURL)") }
        #expect(!warnings.isEmpty, "a warning names the dead endpoint: \(result.stderr)")
        let fileLines = result.stderr.split(separator: "\n").filter { $0.contains("] failed ") || $0.hasPrefix("retrying ") }
        #expect(fileLines.isEmpty, "no file failed or was retried because of the dead server: \(fileLines)")
        let jobs = try queryDatabase(harness.database, "SELECT count(*), max(attempts) FROM job WHERE state = 'done'")
        #expect(jobs.first?[0] as? Int64 == Int64(files))
        #expect(jobs.first?[1] as? Int64 == 1, "no job spent an attempt on the dead server")
        let survivors = try [members[0], members[2]].map { try $0.server.requests().count }
        #expect(survivors.allSatisfy { $0 > files / 6 }, "the others took the rest: \(survivors)")
    }

    @Test func anEndpointWithAWrongKeyIsLeftOutAndTheOthersFinish() throws {
        let harness = try TranscribeHarness()
        let members = [
            Member(server: try StubWhisperServer(delay: 0.02, expectedKey: "sk-good-alpha-0001"), concurrency: 2, delay: 0.02,
                   keyVariable: "VJ_ALPHA_KEY"),
            Member(server: try StubWhisperServer(delay: 0.02, expectedKey: "sk-good-bravo-0002"), concurrency: 2, delay: 0.02,
                   keyVariable: "VJ_BRAVO_KEY"),
            Member(server: try StubWhisperServer(delay: 0.02), concurrency: 1, delay: 0.02),
        ]
        let files = 40
        let folder = try harness.audio(files)
        let binary = try Self.binary(harness, pool: members)
        let keys = ["VJ_ALPHA_KEY": "sk-good-alpha-0001", "VJ_BRAVO_KEY": "sk-wrong-bravo-9999"]

        let result = try binary.run(["transcribe", folder.path, "--json"], environment: keys)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.transcribedOnce(harness, files: files)
        let bravo = members[1].server.baseURL
        #expect(result.stderr.contains("warning: endpoint \(bravo) is left out of this run"), "\(result.stderr)")
        #expect(result.stderr.contains("VJ_BRAVO_KEY"), "the warning says where the key came from")
        for secret in ["sk-good-alpha-0001", "sk-wrong-bravo-9999", "sk-good-bravo-0002"] {
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
        }
        let json = try #require(try result.json() as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints[1]["state"] as? String == "dropped")
        #expect(endpoints[1]["files"] as? Int == 0)
        #expect((endpoints[0]["files"] as? Int ?? 0) + (endpoints[2]["files"] as? Int ?? 0) == files)
    }

    @Test func everyEndpointRefusingEndsTheRunWithExit3AndKeepsTheFilesQueued() throws {
        let harness = try TranscribeHarness()
        let members = ["sk-alpha-expected", "sk-bravo-expected"].enumerated().map { index, key in
            Member(server: try! StubWhisperServer(expectedKey: key), concurrency: 2, delay: 0.01, keyVariable: "VJ_KEY_\(index)")
        }
        let folder = try harness.audio(6)
        let binary = try Self.binary(harness, pool: members)

        let result = try binary.run(["transcribe", folder.path], environment: ["VJ_KEY_0": "sk-alpha-wrong", "VJ_KEY_1": "sk-bravo-wrong"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("no endpoint is left"), "\(result.stderr)")
        for secret in ["sk-alpha-wrong", "sk-bravo-wrong", "sk-alpha-expected", "sk-bravo-expected"] {
            #expect(!result.stderr.contains(secret))
        }
        let states = try queryDatabase(harness.database, "SELECT DISTINCT state FROM job")
        #expect(states.map { $0[0] as? String } == ["queued"], "no file failed: each stays queued for a later run")
    }

    @Test func anOverflowEndpointTakesWorkOnlyWhileThePreferredOneIsBusy() throws {
        let harness = try TranscribeHarness()
        let preferred = Member(server: try StubWhisperServer(delay: 0.1), concurrency: 4, delay: 0.1)
        let overflow = Member(server: try StubWhisperServer(delay: 0.1), concurrency: 2, delay: 0.1, priority: -1)
        // The overflow endpoint comes first in the file: the priority, not the order, decides.
        let binary = try Self.binary(harness, pool: [overflow, preferred])

        let few = try harness.audio(3, in: "few", prefix: "few")
        #expect(try binary.run(["transcribe", few.path]).status == 0)
        #expect(try preferred.server.requests().count == 3)
        #expect(try overflow.server.requests().count == 0, "the preferred endpoint had room for all three")

        let many = try harness.audio(60, in: "many", prefix: "many")
        #expect(try binary.run(["transcribe", many.path]).status == 0)
        let overflowed = try overflow.server.requests().count
        #expect(overflowed > 0 && overflowed < 30, "with the preferred endpoint busy the overflow helps: \(overflowed)")
        try Self.transcribedOnce(harness, files: 63)
    }

    @Test func aSlowPreferredEndpointAndAFastOverflowOneFinishEveryFile() throws {
        // The preferred endpoint is the slow one: the overflow must not wait for it forever,
        // nor it for the overflow (a run that never ends is the failure this guards against).
        let harness = try TranscribeHarness()
        let preferred = Member(server: try StubWhisperServer(delay: 0.3), concurrency: 1, delay: 0.3, priority: 1)
        let overflow = Member(server: try StubWhisperServer(delay: 0.02), concurrency: 2, delay: 0.02)
        let binary = try Self.binary(harness, pool: [preferred, overflow])
        let files = 30
        let folder = try harness.audio(files)

        let run = try binary.start(["transcribe", folder.path])
        let deadline = Date().addingTimeInterval(60)
        while run.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if run.process.isRunning { run.signal(SIGKILL) }
        let result = run.wait()
        #expect(result.status == 0, "the run did not end within a minute: \(result.stderr)")
        try Self.transcribedOnce(harness, files: files)
        #expect(try overflow.server.requests().count > files / 2, "the fast overflow did most while the slow one was busy")
        #expect(try preferred.server.requests().count > 0)
    }

    @Test func queueRunReportsEachEndpointInItsSummaryAndJSON() throws {
        let harness = try TranscribeHarness()
        let members = [Member(server: try StubWhisperServer(delay: 0.02), concurrency: 2, delay: 0.02),
                       Member(server: try StubWhisperServer(delay: 0.02), concurrency: 2, delay: 0.02)]
        let binary = try Self.binary(harness, pool: members)
        let first = try harness.audio(10, in: "first", prefix: "first")
        #expect(try binary.run(["transcribe", "--no-wait", first.path]).status == 0)
        let human = try binary.run(["queue", "run"])
        #expect(human.status == 0, "\(human.stderr)")
        let table = human.stdout.split(separator: "\n").filter { line in members.contains { line.hasPrefix($0.server.baseURL) } }
        #expect(table.count == 2, "one line per endpoint under the summary: \(human.stdout)")

        let second = try harness.audio(10, in: "second", prefix: "second")
        #expect(try binary.run(["transcribe", "--no-wait", second.path]).status == 0)
        let result = try binary.run(["queue", "run", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["transcribed"] as? Int == 10)
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints.compactMap { $0["files"] as? Int }.reduce(0, +) == 10)
        #expect(Set(endpoints.compactMap { $0["endpoint"] as? String }) == Set(members.map(\.server.baseURL)))
        try Self.transcribedOnce(harness, files: 20)
    }

    @Test func anEndpointThatFailsEveryUploadCoolsDownWhileTheOthersFinishAndNoFileFails() throws {
        let harness = try TranscribeHarness()
        let always = { (behaviour: StubWhisperServer.Behaviour) in [StubWhisperServer.Rule(responses: [], then: behaviour)] }
        let members = [
            Member(server: try StubWhisperServer(delay: 0.03), concurrency: 2, delay: 0.03),
            // At once and every time: rate limited, and a server error.
            Member(server: try StubWhisperServer(rules: always(.error(status: 429, code: "rate_limit_exceeded"))), concurrency: 2, delay: 0.01),
            Member(server: try StubWhisperServer(rules: always(.error(status: 503))), concurrency: 2, delay: 0.01),
        ]
        let files = 60
        let folder = try harness.audio(files)
        let binary = try Self.binary(harness, pool: members)

        let result = try binary.run(["transcribe", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.transcribedOnce(harness, files: files)
        for bad in members.dropFirst() {
            #expect(result.stderr.contains("warning: endpoint \(bad.server.baseURL) is out"), "\(result.stderr)")
            // Three in a row take it out; then only a probe now and then reaches it.
            let uploads = try bad.server.requests().count
            #expect(uploads < 15, "\(uploads) uploads to \(bad.server.baseURL)")
        }
        let json = try #require(try result.json() as? [String: Any])
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints[0]["files"] as? Int == files)
        #expect(endpoints.dropFirst().allSatisfy { ($0["failures"] as? Int ?? 0) >= 3 && $0["state"] as? String == "cooling-down" })
        let attempts = try queryDatabase(harness.database, "SELECT max(attempts) FROM job")
        #expect((attempts.first?[0] as? Int64 ?? 99) < 6, "no job came near its last attempt")
    }

    @Test func anEndpointWithoutItsKeySetIsLeftOutBeforeTheRun() throws {
        let harness = try TranscribeHarness()
        // A remote endpoint needs a key: one whose variable is not set cannot work at all.
        let remote = "https://transcribe.example.invalid/v1"
        let local = Member(server: try StubWhisperServer(), concurrency: 1, delay: 0.01)
        let folder = try harness.audio(3)
        var binary = harness.binary
        binary.environment["OPENAI_BASE_URL"] = ""
        try binary.writeConfig(Self.config([local]) + """

            [[endpoint]]
            base_url = "\(remote)"
            api_key_env = "VJ_UNSET_KEY"
            priority = 5
            """)
        let result = try binary.run(["transcribe", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: endpoint \(remote) is left out of this run: no API key: set VJ_UNSET_KEY"),
                "\(result.stderr)")
        #expect(try local.server.requests().count == 3)
    }

    @Test func queueStatusNamesTheEndpointOfEachRunningJob() throws {
        let harness = try TranscribeHarness()
        let members = [Member(server: try StubWhisperServer(delay: 3), concurrency: 1, delay: 3),
                       Member(server: try StubWhisperServer(delay: 3), concurrency: 1, delay: 3)]
        let folder = try harness.audio(2)
        let binary = try Self.binary(harness, pool: members)
        #expect(try binary.run(["transcribe", "--no-wait", folder.path]).status == 0)

        let run = try binary.start(["queue", "run"])
        defer { _ = run.wait() }
        var running: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(20)
        while running.count < 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let status = try binary.run(["queue", "status", "--json"])
            running = ((try? status.json() as? [String: Any])?["runningJobs"] as? [[String: Any]]) ?? []
        }
        #expect(Set(running.compactMap { $0["endpoint"] as? String }) == Set(members.map(\.server.baseURL)),
                "one job on each endpoint: \(running)")
        let text = try binary.run(["queue", "status"]).stdout
        for member in members { #expect(text.contains("on \(member.server.baseURL)"), "\(text)") }
        run.signal(SIGINT)
    }
}
