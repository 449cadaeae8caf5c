import Foundation
import VoiceJournalBatch
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import Synchronization
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// `queue run`'s one call: drain the queue, and say what failed.
@Suite struct QueueDrainTests {
    let journal: TemporaryJournal
    init() throws { journal = try TemporaryJournal() }

    @Test func drainsEveryQueuedJobAndListsTheOnesThatFailedForGood() async throws {
        let urls = try (0..<3).map { try makeTone(at: journal.folder.path("take\($0).wav"), seconds: 0.2, frequency: 220 + $0 * 9) }
        let bad = try makeTone(at: journal.folder.path("refused.wav"), seconds: 0.2, frequency: 500)
        _ = try BatchQueue.enqueue(BatchScanner.walk((urls + [bad]).map(\.path)).files, queue: journal.store.queue, journalName: nil,
                                   logger: TemporaryJournal.logger)
        let server = try StubWhisperServer(rules: [.init(match: "refused", responses: [], then: .error(status: 400, message: "no"))])
        let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: TemporaryJournal.logger)
        let runner = QueueRunner(queue: journal.store.queue, client: client, jobs: 2,
                                 options: .init(retry: RetryPolicy(base: 0.01, cap: 0.05), idlePoll: 0.02), logger: TemporaryJournal.logger)
        let pending = Mutex<Int?>(nil)
        let drained = try await runner.drainQueue(starting: { count in pending.withLock { $0 = count } }, onEvent: { _ in })
        #expect(pending.withLock { $0 } == 4 && drained.pending == 4)
        #expect(drained.summary.transcribed == 3 && drained.summary.failed == 1)
        #expect(drained.failures.map(\.path) == [bad.path])
        #expect(try journal.store.queue.unfinishedJobCount() == 0)
    }
}
