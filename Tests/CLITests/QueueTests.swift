import Foundation
import Testing
import VoiceJournalTestSupport

/// The queue across processes: kills, concurrent runners, big uploads, and the queue commands.
@Suite(.onTestThreads) struct QueueTests {
    @Test func aBatchKilledMidwayResumesWithEveryFileTranscribedOnce() throws {
        // clip03 and clip04 hang on their first upload: once both are in, the two workers are
        // held and the run can go no further, so it is killed midway however slowly a busy
        // machine looks at it (a run left to itself finished all twelve before a loaded test
        // saw three done).
        let hanging = ["clip03", "clip04"].map { StubWhisperServer.Rule(match: $0, responses: [.hang]) }
        let harness = try TranscribeHarness(rules: hanging, delay: 0.1)
        let dir = try harness.audio(12)
        let first = try harness.binary.start(["transcribe", dir.path, "--jobs", "2"])
        var answered = Set<String>(), finishedBefore = Set<String>()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // The stub logs a held upload when it is in, and an answer before it goes out:
            // wait until every answered file is stored too.
            let requests = try harness.server.requests()
            answered = Set(requests.filter { $0.answer == "ok" }.compactMap(\.file?.filename).map { "\(dir.path)/\($0)" })
            finishedBefore = Set(try harness.jobStates().filter { $0.value == "done" }.keys)
            if requests.filter({ $0.answer == "hang" }).count == 2 && finishedBefore == answered { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        first.signal(SIGKILL)
        #expect(first.wait().status == 128 + SIGKILL)
        #expect(finishedBefore == answered)
        #expect(finishedBefore.count >= 3 && finishedBefore.count <= 10, "\(finishedBefore.count) done")
        let uploadsBefore = try harness.server.requests().count
        #expect(uploadsBefore == finishedBefore.count + 2)

        let second = try harness.binary.run(["transcribe", dir.path, "--jobs", "2"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // What was stored before the kill was not uploaded again.
        let later = try harness.server.requests().dropFirst(uploadsBefore).compactMap(\.file?.filename)
        #expect(later.allSatisfy { !finishedBefore.contains("\(dir.path)/\($0)") })
        #expect(second.stdout.contains("\(finishedBefore.count) already done before"))
    }

    /// Two runners share a queue; one is SIGKILLed mid-run. The survivor must take the dead
    /// runner's jobs back as soon as it runs out of other work (not when their 60 s leases
    /// would end, nor never), and end with nothing running and nothing uploaded twice.
    @Test(arguments: ["queue run", "transcribe"])
    func theSurvivorOfAKilledRunnerTakesItsJobsBackAtOnce(survivorCommand: String) throws {
        // The victim starts alone, so its four workers claim the first four jobs (claims go in
        // id order): clip00…clip03, whose first uploads take 30 s. Only once it holds all four
        // does the survivor start, and the victim is killed while the survivor holds a job of its
        // own; the last four files (clip28…clip31) take 5 s, so the survivor is still at work
        // then however slowly a busy machine runs either process. (A `queue run` that finds
        // nothing to claim but jobs of a live runner ends: they are that runner's.)
        let slow = (0..<4).map { StubWhisperServer.Rule(match: String(format: "clip%02d", $0), responses: [.slow(30)]) }
            + (28..<32).map { StubWhisperServer.Rule(match: String(format: "clip%02d", $0), responses: [.slow(5)]) }
        let harness = try TranscribeHarness(rules: slow, delay: 0.3)
        let dir = try harness.audio(32)
        #expect(try harness.binary.run(["transcribe", dir.path, "--no-wait"]).status == 0)
        let victim = try harness.binary.start(["queue", "run", "--jobs", "4"])
        // Lease owners are host:pid:nonce.
        func holds(_ runner: RunningCommand) -> String {
            "SELECT job.id, recording.path FROM job JOIN recording ON recording.id = job.recordingId "
                + "WHERE job.state = 'running' AND job.leaseOwner LIKE '%:\(runner.process.processIdentifier):%'"
        }
        func waitUntil(_ runner: RunningCommand, holds count: Int) {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, ((try? queryDatabase(harness.database, holds(runner))) ?? []).count < count {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        waitUntil(victim, holds: 4)
        let survivor = try harness.binary.start(survivorCommand == "queue run"
            ? ["queue", "run", "--jobs", "4"] : ["transcribe", dir.path, "--jobs", "4"])
        waitUntil(survivor, holds: 1)
        // Frozen first, so what it holds is read exactly as it dies: once it is dead (and
        // reaped) the survivor may take its jobs back faster than a query can look.
        victim.signal(SIGSTOP)
        let held = try queryDatabase(harness.database, holds(victim))
        victim.signal(SIGKILL)
        #expect(victim.wait().status == 128 + SIGKILL)
        let killed = Date()
        let heldIds = held.compactMap { $0[0] as? Int }
        let heldPaths = Set(held.compactMap { $0[1] as? String })
        #expect(!heldIds.isEmpty, "the victim held no job when it was killed")

        let result = survivor.wait()
        let survivorTook = Date().timeIntervalSince(killed)
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try harness.binary.run(["queue", "status", "--json"]).json() as? [String: Any])
        #expect(status["running"] as? Int == 0 && status["queued"] as? Int == 0 && status["done"] as? Int == 32)
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // The dead runner's jobs were claimed again (a second attempt), and without waiting for
        // their leases: the default lease is 60 s and the lease keeper looks every 20 s.
        let attempts = try queryDatabase(harness.database, "SELECT id, attempts FROM job")
        let heldAttempts = attempts.filter { heldIds.contains($0[0] as? Int ?? -1) }.compactMap { $0[1] as? Int }
        #expect(heldAttempts.count == heldIds.count && heldAttempts.allSatisfy { $0 == 2 })
        #expect(survivorTook < 15, "the survivor needed \(survivorTook) s after the kill")
        // Only what the victim held when it died went up twice; nothing stored was uploaded again.
        let uploads = try harness.server.waitForRequests(32 + heldIds.count, timeout: 3).compactMap(\.file?.filename)
        let perFile = Dictionary(grouping: uploads, by: { $0 }).mapValues(\.count)
        for (name, count) in perFile {
            #expect(count == 1 || (count == 2 && heldPaths.contains("\(dir.path)/\(name)")), "\(name) uploaded \(count) times")
        }
    }

    @Test func twoQueueRunnersNeverHandleTheSameJob() throws {
        let harness = try TranscribeHarness(delay: 0.1)
        let dir = try harness.audio(20)
        #expect(try harness.binary.run(["transcribe", dir.path, "--no-wait"]).status == 0)
        let one = try harness.binary.start(["queue", "run", "--jobs", "3"])
        let two = try harness.binary.start(["queue", "run", "--jobs", "3"])
        let results = [one.wait(), two.wait()]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let uploads = try harness.server.requests().compactMap(\.file?.filename)
        #expect(uploads.count == 20)
        #expect(Set(uploads).count == 20)
        #expect(try harness.everyFileTranscribedOnce(in: dir))
        // Both really worked, and their tallies add up to the queue.
        let counts = results.compactMap { result in
            result.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        #expect(counts.count == 2 && counts.reduce(0, +) == 20)
    }

    @Test func aHugeUploadStreamsFromDiskWithSmallMemory() throws {
        let harness = try TranscribeHarness()
        let dir = harness.folder.path("big")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = try makeTone(at: dir.appendingPathComponent("long interview.wav"))
        // A 300 MB WAV (a header and a sparse body); the whole command is measured: probing,
        // hashing (streamed, 1 MiB at a time) and the upload (streamed from disk by curl).
        let size = 300 << 20
        try sparseWAV(at: file, dataBytes: size)

        let rss = harness.folder.path("rss.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", rss.path, VoicejournalBinary.executable.path,
                             "--home", harness.binary.home.path, "transcribe", file.path, "--jobs", "1",
                             // One request, as it is: the limits that would split it are lifted.
                             "--no-trim", "--max-request-bytes", "400000000", "--max-chunk-seconds", "100000"]
        var environment = ProcessInfo.processInfo.environment
        environment.merge(harness.binary.environment) { $1 }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let upload = try #require(try harness.server.requests().first?.file)
        #expect(upload.bytes == Int64(size + 44))
        #expect(upload.sha256 == (try sha256sum(file)))
        let peakKB = try #require(try peakMemoryKilobytes(reportedIn: rss))
        print("peak RSS uploading \(size >> 20) MB: \(peakKB / 1024) MB")
        #expect(peakKB < 100 * 1024, "peak RSS \(peakKB) kB for a \(size >> 20) MB upload")
    }

    @Test func retryAndCancelWorkOnTheQueue() throws {
        let harness = try TranscribeHarness(rules: [.init(match: "clip00", responses: [.error(status: 400, message: "bad audio")])])
        let dir = try harness.audio(3)
        #expect(try harness.binary.run(["transcribe", dir.path, "--no-wait"]).status == 0)
        let list = try #require(try harness.binary.run(["queue", "list", "--json"]).json() as? [[String: Any]])
        let ids = Dictionary(uniqueKeysWithValues: list.compactMap { job -> (String, Int)? in
            guard let path = job["path"] as? String, let id = job["id"] as? Int else { return nil }
            return ((path as NSString).lastPathComponent, id)
        })
        let cancel = try harness.binary.run(["queue", "cancel", String(try #require(ids["clip02.wav"]))])
        #expect(cancel.status == 0)
        #expect(try harness.binary.run(["queue", "cancel", "9999"]).status == 2)

        let run = try harness.binary.run(["queue", "run"])
        #expect(run.status == 1) // clip00 was rejected once
        #expect(try harness.jobStates()["\(dir.path)/clip00.wav"] == "failed")
        #expect(try harness.jobStates()["\(dir.path)/clip02.wav"] == "cancelled")

        #expect(try harness.binary.run(["queue", "retry"]).status == 2)
        let retry = try harness.binary.run(["queue", "retry", "--failed"])
        #expect(retry.stdout.contains("Queued again: 1 job"))
        #expect(try harness.binary.run(["queue", "run"]).status == 0)
        #expect(try harness.jobStates()["\(dir.path)/clip00.wav"] == "done")
        let status = try #require(try harness.binary.run(["queue", "status", "--json"]).json() as? [String: Any])
        #expect(status["done"] as? Int == 2 && status["cancelled"] as? Int == 1)
        #expect(try harness.server.requests().filter { $0.file?.filename == "clip02.wav" }.isEmpty)
    }

    @Test func aFileChangedAfterItWasQueuedIsTranscribedAsWhatItHoldsNow() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .echoSHA)])
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = try makeTone(at: dir.appendingPathComponent("note.wav"), seconds: 0.3, frequency: 300)
        let original = harness.folder.path("original.wav")
        try FileManager.default.copyItem(at: file, to: original)
        let originalSHA = try sha256sum(file)
        #expect(try harness.binary.run(["transcribe", file.path, "--no-wait"]).status == 0)
        // Overwritten in place with other audio of the very same size: only the time differs.
        try makeTone(at: file, seconds: 0.3, frequency: 520)
        let newSHA = try sha256sum(file)
        #expect(newSHA != originalSHA)

        let run = try harness.binary.run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try queryDatabase(harness.database, """
            SELECT recording.sha256, transcript.text FROM recording JOIN transcript ON transcript.recordingId = recording.id
            WHERE recording.path = '\(file.path)'
            """)
        #expect(rows.count == 1)
        #expect(rows.first?[0] as? String == newSHA)
        #expect((rows.first?[1] as? String)?.hasSuffix("sha256:\(newSHA)") == true)
        #expect(try harness.server.requests().compactMap(\.file?.sha256) == [newSHA])

        // A copy of the original audio is audio the journal has not heard: uploaded, with its own transcript.
        let copy = harness.folder.path("later/copy.wav")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: original, to: copy)
        let again = try harness.binary.run(["transcribe", copy.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try harness.server.requests().compactMap(\.file?.sha256) == [newSHA, originalSHA])
        #expect(try harness.transcripts()[copy.path]?.text.hasSuffix("sha256:\(originalSHA)") == true)
    }

    @Test func aFileChangedIntoAudioAlreadyInTheJournalFailsWithAClearMessage() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(2)
        let changed = dir.appendingPathComponent("clip00.wav"), other = dir.appendingPathComponent("clip01.wav")
        #expect(try harness.binary.run(["transcribe", dir.path, "--no-wait"]).status == 0)
        try Data(contentsOf: other).write(to: changed)

        let run = try harness.binary.run(["queue", "run"])
        #expect(run.status == 1)
        let otherId = try #require(try queryDatabase(harness.database, "SELECT id FROM recording WHERE path = '\(other.path)'").first?.first as? Int)
        let failed = try harness.binary.run(["queue", "list", "--state", "failed"])
        #expect(failed.stdout.contains("clip00.wav"))
        #expect(failed.stdout.contains("the file changed after it was queued and now holds audio already in the journal (recording \(otherId))"))
        // Nothing was uploaded for it, and no transcript is stored under audio it no longer holds.
        #expect(try harness.server.requests().compactMap(\.file?.filename) == ["clip01.wav"])
        #expect(try harness.transcripts()[changed.path]?.count == 0)
    }

    /// Rewrites `url` as a mono 16-bit WAV holding `dataBytes` of silence, without writing them.
    private func sparseWAV(at url: URL, dataBytes: Int) throws {
        var header = Data("RIFF".utf8)
        func le32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { header.append(contentsOf: $0) } }
        func le16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { header.append(contentsOf: $0) } }
        le32(36 + dataBytes)
        header.append(contentsOf: Data("WAVEfmt ".utf8))
        le32(16); le16(1); le16(1); le32(16000); le32(32000); le16(2); le16(16)
        header.append(contentsOf: Data("data".utf8))
        le32(dataBytes)
        try header.write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(header.count + dataBytes))
        try handle.close()
    }
}
