import Foundation
import Logging
import VoiceJournalBatch
import VoiceJournalQueue
import VoiceJournalStore
import Synchronization
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// The runner end to end in-process: real SQLite, real libcurl, the stub server.
@Suite struct QueueRunnerTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    var folder: TemporaryFolder { journal.folder }

    init() throws { journal = try TemporaryJournal() }

    func files(_ count: Int, prefix: String = "clip") throws -> [URL] {
        try (0..<count).map { try makeTone(at: folder.path("\(prefix)\($0).wav"), seconds: 0.2, frequency: 200 + $0 * 7) }
    }

    func enqueue(_ urls: [URL], priority: Int = Job.batchPriority) throws -> [QueuedFile] {
        try BatchQueue.enqueue(BatchScanner.walk(urls.map(\.path)).files, queue: store.queue, journalName: nil, priority: priority,
                               logger: Logger(label: "test")).queued
    }

    func runner(_ server: StubWhisperServer, jobs: Int, timeout: Double = 30) -> QueueRunner {
        var configuration = WhisperClient.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.timeout = timeout
        let client = WhisperClient(configuration: configuration, logger: Logger(label: "test"))
        return QueueRunner(queue: store.queue, client: client, jobs: jobs,
                           options: .init(retry: RetryPolicy(base: 0.01, cap: 0.05), lease: 30, idlePoll: 0.02),
                           logger: Logger(label: "test"))
    }

    func transcriptCount() throws -> Int {
        try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM transcript") ?? -1 }
    }

    @Test func transcribesEveryJobOnceWithSeveralWorkers() async throws {
        let queued = try enqueue(try files(8))
        let server = try StubWhisperServer(delay: 0.05)
        let events = Mutex<[String]>([])
        let summary = try await runner(server, jobs: 3).run(until: .finish(Set(queued.map(\.outcome.jobId)))) { event in
            if case .transcribed(_, let path, _) = event { events.withLock { $0.append(path) } }
        }
        #expect(summary.transcribed == 8)
        #expect(Set(events.withLock { $0 }) == Set(queued.map(\.url.path)))
        let uploads = try server.requests().compactMap(\.file?.filename)
        #expect(uploads.count == 8)
        #expect(Set(uploads) == Set(queued.map(\.url.lastPathComponent)))
        #expect(try transcriptCount() == 8)
        let text = try store.transcript(recordingId: queued[0].outcome.recordingId)?.text
        #expect(text == "Transcript of clip0.")
    }

    @Test func retriesServerErrorsUntilTheFileIsDone() async throws {
        let queued = try enqueue(try files(2))
        let server = try StubWhisperServer(rules: [
            .init(responses: [.error(status: 500), .error(status: 503), .reset]),
        ])
        let summary = try await runner(server, jobs: 2).run(until: .drainQueue)
        #expect(summary.transcribed == 2)
        #expect(summary.retried == 6)
        let jobs = try store.queue.jobs(ids: queued.map(\.outcome.jobId))
        #expect(jobs.values.allSatisfy { $0.state == .done && $0.attempts == 4 })
        #expect(try transcriptCount() == 2)
    }

    @Test func takesLiveRecordingsBeforeBatchFiles() async throws {
        let batch = try enqueue(try files(3, prefix: "batch"))
        let live = try enqueue(try files(1, prefix: "live"), priority: Job.livePriority)
        let server = try StubWhisperServer()
        try await runner(server, jobs: 1).run(until: .finish(Set(batch.map(\.outcome.jobId))))
        let order = try server.requests().compactMap(\.file?.filename)
        #expect(order.first == "live0.wav")
        #expect(order.count == 4)
        #expect(try store.queue.jobs(ids: [live[0].outcome.jobId]).values.first?.state == .done)
    }

    @Test func renewsLeasesWhileAnUploadOutlastsThem() async throws {
        let queued = try enqueue(try files(1))
        let server = try StubWhisperServer(rules: [.init(responses: [.slow(2)])])
        let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: Logger(label: "test"))
        let runner = QueueRunner(queue: store.queue, client: client, jobs: 1,
                                 options: .init(lease: 0.6, idlePoll: 0.02), logger: Logger(label: "test"))
        let jobId = queued[0].outcome.jobId
        let owner = runner.owner.description
        // Another runner keeps trying to take the job while the 2 s upload outlives the 0.6 s
        // lease. On a thread started before the run, so a busy test pool cannot make it look
        // too late (the deadline only guards a hang).
        let intruder = StartedThread { [store] () -> (sawClaim: Bool, stolen: Int) in
            let deadline = Date().addingTimeInterval(900)
            while try store.queue.jobs(ids: [jobId]).values.first?.leaseOwner != owner {
                guard Date() < deadline else { return (false, 0) }
                Thread.sleep(forTimeInterval: 0.005)
            }
            var stolen = 0
            let end = Date().addingTimeInterval(1.8)
            while Date() < end {
                if try store.queue.claimNextJob(owner: "test:1:intruder", lease: 60) != nil { stolen += 1 }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return (true, stolen)
        }
        let run = Task { try await runner.run(until: .drainQueue) }
        let (sawClaim, stolen) = try await intruder.value
        let summary = try await run.value
        #expect(sawClaim, "the upload was never seen claimed")
        #expect(stolen == 0)
        #expect(summary.transcribed == 1)
        let job = try #require(try store.queue.jobs(ids: [queued[0].outcome.jobId]).values.first)
        #expect(job.state == .done && job.attempts == 1)
        #expect(try server.requests().count == 1)
    }

    @Test func aRefusedKeyStopsTheRunAndKeepsTheJobsQueued() async throws {
        let queued = try enqueue(try files(5))
        let server = try StubWhisperServer(rules: [.init(responses: [], then: .error(status: 401, code: "invalid_api_key"))])
        do {
            try await runner(server, jobs: 2).run(until: .drainQueue)
            Issue.record("the run should have stopped")
        } catch let error as TranscriptionError {
            #expect(error.kind == .unauthorized)
        }
        #expect(try server.requests().count <= 2)
        let jobs = try store.queue.jobs(ids: queued.map(\.outcome.jobId))
        #expect(jobs.values.allSatisfy { $0.state == .queued && $0.attempts == 0 })
    }

    @Test func stoppingHandsClaimedJobsBack() async throws {
        let queued = try enqueue(try files(3))
        // Slow enough that no upload ends before the stop, even when a test pool busy with
        // blocking CLI tests holds this task for a long while (the stop abandons them at once).
        // (The uploads' timeout is as long: a starved test must not see them time out and retry.)
        let server = try StubWhisperServer(rules: [.init(responses: [.slow(1200)])])
        let runner = runner(server, jobs: 3, timeout: 1200)
        let run = Task { try await runner.run(until: .drainQueue) }
        // Stop only once every job is claimed (and its upload under way), or this proves nothing.
        // (Generous: the run's task may wait for a test pool busy with blocking CLI tests.)
        let deadline = Date().addingTimeInterval(900)
        while try store.queue.queueCounts().running < 3 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(try store.queue.queueCounts().running == 3)
        try await Task.sleep(for: .milliseconds(200))
        runner.stop()
        await #expect(throws: CancellationError.self) { try await run.value }
        let counts = try store.queue.queueCounts()
        #expect(counts.queued == 3 && counts.running == 0)
        #expect(try store.queue.jobs(ids: queued.map(\.outcome.jobId)).values.allSatisfy { $0.attempts == 0 })
    }

    @Test func aFileChangedDuringItsUploadIsUploadedAgainNotStored() async throws {
        let url = try makeTone(at: folder.path("take.wav"), seconds: 0.2, frequency: 300)
        let queued = try enqueue([url])
        // Each answer takes three seconds and names the digest of what was uploaded.
        let server = try StubWhisperServer(rules: [.init(responses: [], then: .echoSHA)], delay: 3)
        let runner = runner(server, jobs: 1)
        // Watched from a thread started before the run, so a busy test pool cannot make it
        // miss the upload (the deadline is generous: the run's task itself may wait for that pool).
        let watcher = StartedThread { [store] () -> Bool in
            // The run's task needs Swift's cooperative pool, which blocking CLI tests can hold
            // for minutes on two cores: the deadline only guards against a hang.
            let deadline = Date().addingTimeInterval(900)
            while try store.queue.queueCounts().running < 1 {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.005)
            }
            // The small file is sent (a loaded machine can take a while from claim to upload);
            // the answer is not back.
            Thread.sleep(forTimeInterval: 1)
            try makeTone(at: url, seconds: 0.2, frequency: 640)
            return true
        }
        let run = Task { try await runner.run(until: .drainQueue) }
        let changed = try await watcher.value
        #expect(changed, "the upload was never seen running")
        let newSHA = try sha256sum(url)
        let summary = try await run.value
        #expect(summary.transcribed == 1 && summary.retried == 1)
        let uploads = try server.requests().compactMap(\.file?.sha256)
        #expect(uploads.count == 2 && uploads.last == newSHA)
        let recordingId = queued[0].outcome.recordingId
        #expect(try store.recording(id: recordingId)?.sha256 == newSHA)
        #expect(try store.transcript(recordingId: recordingId)?.text.hasSuffix("sha256:\(newSHA)") == true)
    }

    @Test func aFileTheServerRejectsFailsAloneWithItsMessage() async throws {
        let queued = try enqueue(try files(3))
        let server = try StubWhisperServer(rules: [
            .init(match: "clip1", responses: [], then: .error(status: 400, message: "Invalid file format for clip1")),
        ])
        let summary = try await runner(server, jobs: 2).run(until: .drainQueue)
        #expect(summary.transcribed == 2 && summary.failed == 1)
        let failed = try store.queue.listJobs(state: .failed)
        #expect(failed.map(\.path) == [queued[1].url.path])
        #expect(failed.first?.job.lastError?.contains("Invalid file format for clip1") == true)
        #expect(try server.requests().filter { $0.file?.filename == "clip1.wav" }.count == 1)
    }
}
