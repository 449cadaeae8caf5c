import Foundation
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// A live recording's plan of pieces in the queue: pieces are claimed as they come, the
/// transcript is assembled only once the recording has ended and every piece is in.
@Suite(.onTestThreads) struct LivePieceStoreTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    /// A recording being captured, with its open plan.
    func startRecording() throws -> (recordingId: Int64, jobId: Int64) {
        let (recording, _) = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                                      format: "wav", sampleRate: 16000, channels: 1) { id in ("/audio/\(id).wav", ()) }
        let id = try #require(recording.id)
        return (id, try #require(try store.queue.beginLivePieces(recordingId: id).id))
    }

    func piece(_ index: Int, jobId: Int64) -> PlannedChunk {
        PlannedChunk(startSeconds: Double(index) * 20, path: "\(store.home.url.path)/tmp/job\(jobId)-part\(index + 1).flac",
                     endSeconds: Double(index) * 20 + 18)
    }

    func result(_ text: String) -> ChunkResult {
        ChunkResult(text: text, language: "en", model: "whisper-1", segments: [.init(start: 0, end: 2, text: text)])
    }

    /// Joins the pieces' texts in order, as the stitcher would.
    func assemble(_ chunks: [JobChunk]) -> Transcript {
        Transcript(recordingId: 0, text: chunks.compactMap(\.result?.text).joined(separator: " "), language: "en",
                   model: "whisper-1", segments: [])
    }

    func complete(_ owner: String) throws -> ChunkCompletion {
        let job = try #require(try store.queue.claimNextJob(owner: owner, lease: 60))
        return try store.queue.completeChunk(jobId: try #require(job.id), owner: owner, result: result("piece \(job.kind)"),
                                       assemble: assemble)
    }

    @Test func piecesAreTranscribedWhileRecordingAndAssembledOnlyOnceItEnds() throws {
        let (recordingId, jobId) = try startRecording()
        // The recording's own job waits for its pieces: nothing to claim yet.
        #expect(try store.queue.claimNextJob(owner: "test:1:a", lease: 60) == nil)
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: piece(0, jobId: jobId)) != nil)
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: piece(1, jobId: jobId)) != nil)
        #expect(try complete("test:1:a") == .stored(parentJobId: jobId, done: 1, total: 2))
        // Every piece so far is done, but the recording goes on: no transcript yet.
        #expect(try complete("test:1:a") == .stored(parentJobId: jobId, done: 2, total: 2))
        #expect(try store.queue.claimNextJob(owner: "test:1:a", lease: 60) == nil)
        #expect(try store.queue.livePlan(recordingId: recordingId) == LivePlan(jobId: jobId, isOpen: true, pieceCount: 2, coveredSeconds: 38))

        let ending = try store.queue.endLivePieces(jobId: jobId, lastPieces: [piece(2, jobId: jobId)], durationSeconds: 60, assemble: assemble)
        #expect(ending == .closed(pieceCount: 3))
        guard case .assembled(_, let paths) = try complete("test:1:b") else {
            Issue.record("the last piece did not assemble the transcript")
            return
        }
        #expect(paths.count == 3)
        let transcript = try #require(try store.transcript(recordingId: recordingId))
        #expect(transcript.text == "piece transcribe-chunk-1 piece transcribe-chunk-2 piece transcribe-chunk-3")
        #expect(try store.queue.jobs(ids: [jobId])[jobId]?.state == .done)
        // A plan that is closed takes no more pieces.
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: piece(3, jobId: jobId)) == nil)
    }

    @Test func aRecordingWhosePiecesAreAllDoneAtTheStopIsAssembledAtOnce() throws {
        let (recordingId, jobId) = try startRecording()
        _ = try store.queue.addLivePiece(jobId: jobId, piece: piece(0, jobId: jobId))
        _ = try complete("test:1:a")
        let ending = try store.queue.endLivePieces(jobId: jobId, lastPieces: [], durationSeconds: 19, assemble: assemble)
        #expect(ending == .assembled(chunkPaths: [piece(0, jobId: jobId).path]))
        #expect(try store.transcript(recordingId: recordingId)?.text == "piece transcribe-chunk-1")
    }

    @Test func aTakeThatWasNeverCutIsAnOrdinaryJob() throws {
        let (recordingId, jobId) = try startRecording()
        #expect(try store.queue.endLivePieces(jobId: jobId, lastPieces: [], durationSeconds: 5, assemble: assemble) == .noPieces)
        #expect(try store.queue.livePlan(recordingId: recordingId) == nil)
        let claimed = try store.queue.claimNextJob(owner: "test:1:a", lease: 60)
        #expect(claimed?.id == jobId && claimed?.isChunk == false)
    }

    @Test func aPieceThatFailsForGoodStopsThePieces() throws {
        let (_, jobId) = try startRecording()
        _ = try store.queue.addLivePiece(jobId: jobId, piece: piece(0, jobId: jobId))
        let job = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        #expect(try store.queue.failChunk(jobId: try #require(job.id), owner: "test:1:a", message: "refused") != nil)
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: piece(1, jobId: jobId)) == nil)
        #expect(try store.queue.endLivePieces(jobId: jobId, lastPieces: [], durationSeconds: 30, assemble: assemble) == .gone)
        #expect(try store.queue.jobs(ids: [jobId])[jobId]?.state == .failed)
    }
}
