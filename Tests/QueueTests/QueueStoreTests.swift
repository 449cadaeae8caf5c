import Foundation
import VoiceJournalSystem
import GRDB
import VoiceJournalQueue
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// The queue's SQLite side: leases, priorities, retries and the transcript transaction,
/// on a real database file.
@Suite(.onTestThreads) struct QueueStoreTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    var folder: TemporaryFolder { journal.folder }

    init() throws { journal = try TemporaryJournal() }

    /// Adds recordings with made-up digests and queues them.
    func queue(_ count: Int, priority: Int = Job.batchPriority, prefix: String = "f") throws -> [BatchFileOutcome] {
        let files = (0..<count).map { index in
            Recording(path: "/audio/\(prefix)\(index).wav", sha256: "\(prefix)-\(index)-\(UUID().uuidString)",
                      durationSeconds: 1, sampleRate: 16000, channels: 1, format: "wav", state: .complete)
        }
        return try store.queue.addBatchFiles(files, priority: priority)
    }

    @Test func concurrentClaimersNeverGetTheSameJob() async throws {
        let queued = try queue(60)
        // A second pool on the same file stands in for another process.
        let other = try JournalStore(home: store.home, logger: TemporaryJournal.logger)
        let stores = [store, other]
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<6 {
                group.addTask {
                    try await onOwnThread {
                        var mine: [Int64] = []
                        while let job = try stores[worker % 2].queue.claimNextJob(owner: "test:1:w\(worker)", lease: 60) {
                            mine.append(job.id ?? -1)
                        }
                        return mine
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 60)
        #expect(Set(claimed) == Set(queued.map(\.jobId)))
    }

    @Test func liveRecordingsOutrankBatchFiles() throws {
        _ = try queue(3, prefix: "batch")
        let live = try queue(1, priority: Job.livePriority, prefix: "live")
        let first = try store.queue.claimNextJob(owner: "test:1:a", lease: 60)
        #expect(first?.id == live[0].jobId)
        #expect(first?.state == .running)
        #expect(first?.attempts == 1)
    }

    @Test func anExpiredLeaseGivesTheJobBack() throws {
        let queued = try queue(1)
        let start = Date()
        let first = try store.queue.claimNextJob(owner: "test:1:dead", lease: 10, now: start)
        #expect(first?.id == queued[0].jobId)
        #expect(try store.queue.claimNextJob(owner: "test:1:b", lease: 10, now: start.addingTimeInterval(5)) == nil)
        let again = try store.queue.claimNextJob(owner: "test:1:b", lease: 10, now: start.addingTimeInterval(11))
        #expect(again?.id == queued[0].jobId)
        #expect(again?.leaseOwner == "test:1:b")
        #expect(again?.attempts == 2)
    }

    @Test func aJobWhoseWorkersKeepDyingFailsAfterItsAttempts() throws {
        _ = try queue(1)
        var now = Date()
        for _ in 0..<6 {
            #expect(try store.queue.claimNextJob(owner: "test:1:x", lease: 1, now: now) != nil)
            now.addTimeInterval(2)
        }
        #expect(try store.queue.claimNextJob(owner: "test:1:x", lease: 1, now: now) == nil)
        let failed = try store.queue.listJobs(state: .failed)
        #expect(failed.count == 1)
        #expect(failed.first?.job.lastError?.contains("worker stopped") == true)
    }

    @Test func leasesOfADeadProcessOnThisMachineEndAtOnce() throws {
        _ = try queue(1)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = LeaseOwner(host: LeaseOwner.current().host, pid: finished.processIdentifier, nonce: "gone")
        #expect(dead.isGone)
        #expect(!LeaseOwner.current().isGone)
        #expect(!LeaseOwner(host: "another-host", pid: finished.processIdentifier, nonce: "x").isGone)

        _ = try store.queue.claimNextJob(owner: dead.description, lease: 3600)
        #expect(try store.queue.claimNextJob(owner: "test:1:b", lease: 60) == nil)
        try store.queue.expireLeases(of: Set(try store.queue.leaseOwners().filter { LeaseOwner($0)?.isGone ?? false }))
        #expect(try store.queue.claimNextJob(owner: "test:1:b", lease: 60) != nil)
    }

    @Test func aTranscriptLandsWithItsJobAndIsSearchable() throws {
        let queued = try queue(1)
        let job = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let transcript = Transcript(recordingId: queued[0].recordingId, text: "Grandmother's apple orchard in spring",
                                    language: "english", model: "whisper-1",
                                    segments: [.init(start: 0, end: 2, text: " Grandmother's apple orchard in spring")])
        // Someone who does not hold the lease cannot complete it.
        #expect(try store.queue.completeJob(id: try #require(job.id), owner: "test:1:intruder", transcript: transcript) == false)
        #expect(try store.transcript(recordingId: queued[0].recordingId) == nil)

        #expect(try store.queue.completeJob(id: try #require(job.id), owner: "test:1:a", transcript: transcript))
        let stored = try #require(try store.transcript(recordingId: queued[0].recordingId))
        #expect(stored.segments == transcript.segments)
        #expect(try store.queue.jobs(ids: [queued[0].jobId])[queued[0].jobId]?.state == .done)
        let hits = try store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index WHERE search_index MATCH 'orchard' AND ownerKind = 'transcript'")
        }
        #expect(hits == 1)
    }

    @Test func completionsClaimTheNextJobsWithTheirRecordingsInTheSameTransaction() throws {
        let queued = try queue(5)
        let first = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let second = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let done = [first, second].map { job in
            JobQueue.Completion(jobId: job.id!, transcript: Transcript(
                recordingId: job.recordingId, text: "said \(job.id!)", language: nil, model: "whisper-1", segments: []))
        }
        let claims = [JobQueue.Claim(endpoint: "http://a/v1", count: 1), JobQueue.Claim(endpoint: "http://b/v1", count: 1)]
        let (kept, perEndpoint) = try store.queue.completeJobsAndClaim(done, owner: "test:1:a", claims: claims, lease: 60,
                                                                 scope: JobScope(Set(queued.map(\.jobId))))
        #expect(kept == [true, true])
        #expect(perEndpoint.map(\.count) == [1, 1])
        let claimed = perEndpoint.flatMap { $0 }
        #expect(claimed.map(\.job.id) == [queued[2].jobId, queued[3].jobId])
        // Each job is claimed for its endpoint, which `queue status` shows while it runs.
        #expect(try store.queue.runningJobs().map(\.endpoint) == ["http://a/v1", "http://b/v1"])
        #expect(claimed.allSatisfy { $0.job.state == .running && $0.job.leaseOwner == "test:1:a" })
        #expect(claimed.map(\.recording?.id) == [queued[2].recordingId, queued[3].recordingId])
        #expect(try store.transcript(recordingId: queued[0].recordingId)?.text == "said \(first.id!)")
        #expect(try store.transcript(recordingId: queued[1].recordingId)?.text == "said \(second.id!)")

        // A result for a job no longer held is dropped, but the claim still happens; the scope holds.
        let (keptAgain, third) = try store.queue.completeJobsAndClaim(
            [done[0]], owner: "test:1:a", claims: [.init(endpoint: nil, count: 3)], lease: 60, scope: JobScope([queued[4].jobId]))
        #expect(keptAgain == [false])
        #expect(third.flatMap { $0 }.map(\.job.id) == [queued[4].jobId])
        let (_, none) = try store.queue.completeJobsAndClaim([], owner: "test:1:a", claims: [.init(endpoint: nil, count: 1)], lease: 60,
                                                       scope: JobScope([]))
        #expect(none.flatMap { $0 }.isEmpty, "an empty scope claims nothing but live recordings")
    }

    @Test func aScopeOfScatteredJobsClaimsOnlyThemInQueueOrder() throws {
        let queued = try queue(12)
        let wanted = [queued[1], queued[4], queued[5], queued[6], queued[11]].map(\.jobId)
        let scope = JobScope(Set(wanted))
        var claimed: [Int64] = []
        while let job = try store.queue.claimNextJob(owner: "test:1:a", lease: 60, scope: scope) { claimed.append(try #require(job.id)) }
        #expect(claimed == wanted)
        #expect(try store.queue.unfinishedJobCount(scope: scope) == 5)
        #expect(try store.queue.unfinishedJobCount(scope: JobScope([queued[0].jobId, queued[2].jobId])) == 2)
        // A live recording is claimed whatever the scope.
        let live = try queue(1, priority: Job.livePriority, prefix: "live")
        #expect(try store.queue.claimNextJob(owner: "test:1:a", lease: 60, scope: scope)?.id == live[0].jobId)
    }

    @Test func segmentsWithAnyTextAreStoredExactly() throws {
        let queued = try queue(1)
        let job = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let tricky = ["quote \" and \\ backslash", "line\nbreak\ttab\r", "bell \u{7} nul \u{0} esc \u{1B}[31m",
                      "ünïcödé 日本語 🎙️", "", "</script>"]
        let segments = tricky.enumerated().map { Transcript.Segment(start: Double($0.offset) * 1.25, end: Double($0.offset) + 1e-5, text: $0.element) }
        let transcript = Transcript(recordingId: queued[0].recordingId, text: "x", language: "en", model: "m", segments: segments)
        #expect(try store.queue.completeJob(id: try #require(job.id), owner: "test:1:a", transcript: transcript))
        #expect(try store.transcript(recordingId: queued[0].recordingId)?.segments == segments)
    }

    @Test func aRetryWaitsForItsTimeAndGivesUpAfterMaxAttempts() throws {
        let queued = try queue(1)
        var now = Date()
        for attempt in 1...6 {
            let job = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60, now: now))
            #expect(job.attempts == attempt)
            let after = try store.queue.failJob(id: queued[0].jobId, owner: "test:1:a", error: "HTTP 503",
                                          retryAt: now.addingTimeInterval(30), now: now)
            if attempt < 6 {
                #expect(after?.state == .queued)
                #expect(try store.queue.claimNextJob(owner: "test:1:a", lease: 60, now: now.addingTimeInterval(29)) == nil)
                now.addTimeInterval(31)
            } else {
                #expect(after?.state == .failed)
                #expect(after?.lastError == "HTTP 503")
            }
        }
        #expect(try store.queue.retryJobs(ids: nil) == [queued[0].jobId])
        let again = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        #expect(again.attempts == 1)
    }

    @Test func theSameAudioIsOneRecordingAndOneJob() throws {
        let digest = "same-\(UUID().uuidString)"
        let first = Recording(path: "/a/one.wav", sha256: digest, sampleRate: 16000, channels: 1, format: "wav", state: .complete)
        var copy = first
        copy.path = "/b/copy of one.wav"
        _ = try store.createJournal(name: "Podcasts")
        let outcomes = try store.queue.addBatchFiles([first, copy], journalName: "Podcasts")
        #expect(outcomes[0].recordingId == outcomes[1].recordingId)
        #expect(outcomes[0].jobId == outcomes[1].jobId)
        #expect(outcomes.map(\.isNewRecording) == [true, false])
        #expect(outcomes[0].entryId != nil && outcomes[0].entryId == outcomes[1].entryId)
        let again = try store.queue.addBatchFiles([first], journalName: "podcasts")
        #expect(again[0].recordingId == outcomes[0].recordingId)
        let counts = try store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM job") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE name = 'Podcasts'") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE kind = 'voice'") ?? -1)
        }
        #expect(counts == (1, 1, 1, 1))
        #expect(try store.recording(id: outcomes[0].recordingId)?.path == "/a/one.wav")
    }

    @Test func cancelAndRetryFollowTheJobsState() throws {
        let queued = try queue(2)
        let cancelled = try store.queue.cancelJob(id: queued[0].jobId)
        #expect(cancelled.state == .cancelled)
        #expect(try store.queue.claimNextJob(owner: "test:1:a", lease: 60)?.id == queued[1].jobId)
        #expect(throws: StoreError.self) { try store.queue.retryJobs(ids: [queued[1].jobId]) }
        #expect(try store.queue.retryJobs(ids: [queued[0].jobId]) == [queued[0].jobId])
        #expect(throws: StoreError.self) { try store.queue.cancelJob(id: 9999) }
        let counts = try store.queue.queueCounts()
        #expect((counts.queued, counts.running, counts.cancelled) == (1, 1, 0))
    }

    @Test func aChunkThatFailsForGoodFailsItsRecordingAndHandsBackEveryChunkFileAtOnce() throws {
        let queued = try queue(1)
        let parent = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let paths = (1...3).map { "\(store.home.url.path)/tmp/job\(queued[0].jobId)-part\($0).flac" }
        #expect(try store.queue.splitJob(id: try #require(parent.id), owner: "test:1:a",
                                   chunks: paths.enumerated().map { PlannedChunk(startSeconds: Double($0.offset) * 10, path: $0.element) },
                                   durationSeconds: 30))
        let first = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        let second = try #require(try store.queue.claimNextJob(owner: "test:1:b", lease: 60))
        // Only the holder of a chunk's lease can fail it.
        #expect(try store.queue.failChunk(jobId: try #require(second.id), owner: "test:1:a", message: "no") == nil)
        #expect(try store.queue.failChunk(jobId: try #require(first.id), owner: "test:1:a", message: "chunk 1: refused") == paths)
        // The recording failed with the chunk's message; no chunk job or file is left to anyone.
        let failed = try store.queue.listJobs(state: .failed)
        #expect(failed.map(\.job.id) == [queued[0].jobId] && failed.first?.job.lastError == "chunk 1: refused")
        #expect(try store.queue.chunkPathsInUse().isEmpty)
        #expect(try store.queue.claimNextJob(owner: "test:1:c", lease: 60) == nil)
        #expect(try store.queue.failChunk(jobId: try #require(second.id), owner: "test:1:b", message: "late") == nil)
    }
}
