import Foundation
import VoiceJournalBatch
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import Synchronization
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// The runner's event stream, and the in-process transcriber `serve --transcribe` runs.
@Suite struct InProcessTranscriberTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    func enqueue(_ count: Int) throws -> [QueuedFile] {
        let urls = try (0..<count).map { try makeTone(at: journal.folder.path("clip\($0).wav"), seconds: 0.2, frequency: 200 + $0 * 7) }
        return try BatchQueue.enqueue(BatchScanner.walk(urls.map(\.path)).files, queue: store.queue, journalName: nil,
                                      priority: Job.batchPriority, logger: Logger(label: "test")).queued
    }

    func runner(_ server: StubWhisperServer) -> QueueRunner {
        let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: Logger(label: "test"))
        return QueueRunner(queue: store.queue, client: client, jobs: 2,
                           options: .init(retry: RetryPolicy(base: 0.01, cap: 0.05), lease: 30, idlePoll: 0.02),
                           logger: Logger(label: "test"))
    }

    @Test(.timeLimit(.minutes(10)))
    func theEventStreamGivesEachJobsEventsThenTheSummary() async throws {
        let queued = try enqueue(3)
        let server = try StubWhisperServer()
        let run = runner(server).events(until: .finish(Set(queued.map(\.outcome.jobId))))
        var transcribed: Set<String> = []
        for await event in run {
            if case .transcribed(_, let path, _) = event { transcribed.insert(path) }
        }
        #expect(transcribed == Set(queued.map(\.url.path)))
        #expect(try await run.summary.transcribed == 3)
    }

    @Test(.timeLimit(.minutes(10)))
    func aNudgedTranscriberTranscribesWhatWaitsAndSaysSo() async throws {
        let server = try StubWhisperServer()
        let reports = Mutex<[InProcessTranscriber.Report]>([])
        let transcriber = InProcessTranscriber(queue: store.queue, report: { report in reports.withLock { $0.append(report) } }) {
            runner(server)
        }
        let running = Task { await transcriber.run() }
        defer { running.cancel() }
        _ = try enqueue(2)
        transcriber.nudge()
        while try store.queue.unfinishedJobCount() > 0 || reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(reports.withLock { $0 } == [.transcribed(count: 2, failed: 0)])
        #expect(reports.withLock { $0 }.first?.text == "Transcribed 2 answers.")
        running.cancel()
        await running.value
    }

    @Test(.timeLimit(.minutes(10)))
    func aServerThatCannotTranslateIsToldOnceAndTheAnswersAreStored() async throws {
        let server = try StubWhisperServer(translateRules: [.init(responses: [], then: .error(
            status: 400, code: "model_cannot_translate", message: "The model tiny.en is English-only and cannot translate"))],
                                           language: "polish")
        let reports = Mutex<[InProcessTranscriber.Report]>([])
        let transcriber = InProcessTranscriber(queue: store.queue, report: { report in reports.withLock { $0.append(report) } }) {
            let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: Logger(label: "test"))
            var options = QueueRunner.Options(retry: RetryPolicy(base: 0.01, cap: 0.05), lease: 30, idlePoll: 0.02)
            options.translate = true
            return QueueRunner(queue: store.queue, client: client, jobs: 1, options: options, logger: Logger(label: "test"))
        }
        let running = Task { await transcriber.run() }
        defer { running.cancel() }
        let queued = try enqueue(2)
        transcriber.nudge()
        while try store.queue.unfinishedJobCount() > 0 || !reports.withLock({ $0.contains { $0.isResult } }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let told = reports.withLock { $0 }.filter { if case .untranslated = $0 { true } else { false } }
        #expect(told.count == 1)
        #expect(told.first?.text.contains("cannot translate") == true && told.first?.isResult == false)
        #expect(reports.withLock { $0 }.contains(.transcribed(count: 2, failed: 0)))
        for file in queued {
            let transcript = try #require(try store.transcript(recordingId: file.outcome.recordingId))
            #expect(transcript.translation == nil && transcript.translationNote?.contains("cannot translate") == true)
        }
        running.cancel()
        await running.value
    }

    @Test(.timeLimit(.minutes(10)))
    func aRefusedKeyPausesTranscriptionAndSaysWhenItTriesAgain() async throws {
        _ = try enqueue(1)
        let server = try StubWhisperServer(rules: [.init(responses: [], then: .error(status: 401, code: "invalid_api_key"))])
        let reports = Mutex<[InProcessTranscriber.Report]>([])
        let transcriber = InProcessTranscriber(queue: store.queue, firstPause: .seconds(30),
                                               report: { report in reports.withLock { $0.append(report) } }) { runner(server) }
        let running = Task { await transcriber.run() }
        while reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        running.cancel()
        await running.value
        let report = try #require(reports.withLock { $0.first })
        guard case .paused(_, let seconds) = report else { Issue.record("\(report)"); return }
        #expect(seconds == 30 && report.text.hasSuffix("; answers stay queued; trying again in 30 s"), "\(report.text)")
        #expect(try store.queue.unfinishedJobCount() == 1)
    }

    @Test(.timeLimit(.minutes(10)))
    func aRecordingsPiecesAreReportedInOrderAsTheyComeBack() async throws {
        let (recording, _) = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                                      format: "wav", sampleRate: 16000, channels: 1) { id in ("/audio/take\(id).wav", ()) }
        let recordingId = try #require(recording.id)
        let jobId = try #require(try store.queue.beginLivePieces(recordingId: recordingId).id)
        func piece(_ index: Int) throws -> PlannedChunk {
            let url = try makeTone(at: journal.folder.path("piece\(index).wav"), seconds: 0.5, frequency: 300 + index * 50)
            return PlannedChunk(startSeconds: Double(index - 1), path: url.path, endSeconds: Double(index) - 0.5)
        }
        let server = try StubWhisperServer()
        let reports = Mutex<[InProcessTranscriber.Report]>([])
        let transcriber = InProcessTranscriber(recordingWith: runner(server), queue: store.queue, texts: true) { report in
            reports.withLock { $0.append(report) }
        }
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: piece(1)) != nil)
        transcriber.follow(jobId: jobId)
        while reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        let last = try piece(2)
        #expect(try store.queue.endLivePieces(jobId: jobId, lastPieces: [last], durationSeconds: 2, assemble: { _ in
            Transcript(recordingId: recordingId, text: "", language: "en", model: "whisper-1", segments: [])
        }) == .closed(pieceCount: 2))
        transcriber.nudge()
        guard case .finished = await transcriber.finish() else { Issue.record("the job did not finish"); return }
        // The last piece completes the transcript (its pieces' rows go with that): it is the
        // whole transcript the command prints then, not a piece.
        #expect(reports.withLock { $0 } == [.pieceText("Transcript of take1.wav.part1.")])
        #expect(try store.transcript(recordingId: recordingId)?.text == "Transcript of take1.wav.part1. Transcript of take1.wav.part2.")
    }
}
