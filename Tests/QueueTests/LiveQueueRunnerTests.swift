import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// A queue runner meeting a recording that is still being made with live pieces.
@Suite struct LiveQueueRunnerTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    @Test(.timeLimit(.minutes(10)))
    func drainingTheQueueTranscribesTheQueuedPiecesAndDoesNotWaitForTheRecordingToEnd() async throws {
        let (recording, _) = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                                      format: "wav", sampleRate: 16000, channels: 1) { id in ("/audio/take\(id).wav", ()) }
        let recordingId = try #require(recording.id)
        let jobId = try #require(try store.queue.beginLivePieces(recordingId: recordingId).id)
        let piece = try makeTone(at: journal.folder.path("piece1.wav"), seconds: 0.5, frequency: 300)
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: PlannedChunk(startSeconds: 0, path: piece.path, endSeconds: 0.5)) != nil)

        let server = try StubWhisperServer()
        let client = WhisperClient(configuration: .init(baseURL: server.baseURL, apiKey: nil), logger: Logger(label: "test"))
        let runner = QueueRunner(queue: store.queue, client: client, jobs: 2, options: .init(idlePoll: 0.02), logger: Logger(label: "test"))
        let summary = try await runner.run(until: .drainQueue)

        #expect(summary.transcribed == 0, "the recording is not transcribed until it ends")
        #expect(try server.requests().compactMap(\.file?.filename) == ["take1.wav.part1.wav"])
        #expect(try store.queue.pieceTexts(jobId: jobId) == [0: "Transcript of take1.wav.part1."])
        #expect(try store.queue.livePlan(recordingId: recordingId)?.isOpen == true)
    }
}
