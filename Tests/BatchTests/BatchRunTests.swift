import Foundation
import VoiceJournalBatch
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import Synchronization
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// The batch flow in-process, as `transcribe` calls it: walk, queue, run over the stub
/// server, wrap up.
@Suite struct BatchRunTests {
    let journal: TemporaryJournal
    init() throws { journal = try TemporaryJournal() }

    func pool(_ server: StubWhisperServer, workers: Int = 2) -> EndpointPool {
        let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: TemporaryJournal.logger)
        return EndpointPool(endpoints: [PoolEndpoint(client: client, workers: workers)])
    }

    func folder(audio count: Int) throws -> URL {
        let dir = journal.folder.path("batch")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for index in 0..<count { _ = try makeTone(at: dir.appendingPathComponent("clip\(index).wav"), seconds: 0.3, frequency: 300 + index * 50) }
        try Data("not audio at all".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        return dir
    }

    @Test func threeFilesAreTranscribedAndANonAudioFileIsSkippedWithItsReason() async throws {
        let server = try StubWhisperServer()
        let dir = try folder(audio: 3)
        let skipped = Mutex<[String]>([]), transcribed = Mutex(0)
        var request = BatchRequest(paths: [dir.path], pool: pool(server))
        request.options.retry = RetryPolicy(base: 0.01, cap: 0.05)
        let outcome = try await BatchQueue.transcribe(request, openStore: { journal.store }, logger: TemporaryJournal.logger) { event in
            switch event {
            case .skipped(let file): skipped.withLock { $0.append("\(file.url.lastPathComponent): \(file.reason)") }
            case .run(.transcribed): transcribed.withLock { $0 += 1 }
            default: break
            }
        }
        #expect(outcome.files == 3)
        #expect(outcome.wrapUp?.done == 3)
        #expect(outcome.wrapUp?.failed.isEmpty == true)
        #expect(outcome.run?.transcribed == 3)
        #expect(outcome.skipped == 1 && !outcome.incomplete)
        let skips = skipped.withLock { $0 }
        #expect(skips.count == 1 && skips.allSatisfy { $0.hasPrefix("notes.txt: not audio") })
        #expect(transcribed.withLock { $0 } == 3)
        #expect(try server.requests().count == 3)

        // The same folder again: nothing uploaded, every file already done before.
        let again = try await BatchQueue.transcribe(request, openStore: { journal.store }, logger: TemporaryJournal.logger) { _ in }
        #expect(again.alreadyDone == 3 && again.wrapUp?.done == 3)
        #expect(try server.requests().count == 3)
    }

    @Test func withoutAPoolTheFilesAreOnlyQueued() async throws {
        let dir = try folder(audio: 2)
        let outcome = try await BatchQueue.transcribe(BatchRequest(paths: [dir.path], pool: nil), openStore: { journal.store },
                                                      logger: TemporaryJournal.logger) { _ in }
        #expect(outcome.queued == 2 && outcome.skipped == 1)
        #expect(outcome.wrapUp == nil && outcome.run == nil)
        #expect(try journal.store.queue.queueCounts().queued == 2)
    }

    @Test func anUnknownJournalIsAnErrorBeforeAnythingIsQueued() async throws {
        let dir = try folder(audio: 1)
        await #expect(throws: StoreError.self) {
            try await BatchQueue.transcribe(BatchRequest(paths: [dir.path], journal: "No such journal", pool: nil),
                                            openStore: { journal.store }, logger: TemporaryJournal.logger) { _ in }
        }
        #expect(try journal.store.queue.queueCounts().total == 0)
    }
}
