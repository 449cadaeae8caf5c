import Foundation
@testable import VoiceJournalQueue
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// Where a recording was cut is kept with each chunk and live piece, so the transcript
/// assembled from them keeps words said on both sides of a pause and drops only a word heard
/// twice at a cut through speech.
@Suite(.onTestThreads) struct ChunkSeamStoreTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    func result(_ text: String) -> ChunkResult {
        ChunkResult(text: text, language: "en", model: "whisper-1", segments: [.init(start: 0, end: 1.5, text: " " + text)])
    }

    func assemble(_ chunks: [JobChunk]) -> Transcript {
        Transcript.assembled(chunks, recordingId: 0, durationSeconds: 40)
    }

    /// Claims and completes every chunk job, the first saying `first`, the others `next`.
    func completeChunks(first: String, next: String) throws {
        var index = 0
        while let job = try store.queue.claimNextJob(owner: "test:1:a", lease: 60) {
            _ = try store.queue.completeChunk(jobId: try #require(job.id), owner: "test:1:a",
                                        result: result(index == 0 ? first : next), assemble: assemble)
            index += 1
        }
    }

    @Test(arguments: [false, true])
    func aLongFilesChunksKeepWordsRepeatedAcrossAPause(cutInSpeech: Bool) throws {
        let recording = Recording(path: "/audio/talk.wav", sha256: UUID().uuidString, durationSeconds: 40, sampleRate: 16000,
                                  channels: 1, format: "wav", state: .complete)
        let queued = try store.queue.addBatchFiles([recording], priority: Job.batchPriority)
        let parent = try #require(try store.queue.claimNextJob(owner: "test:1:a", lease: 60))
        #expect(try store.queue.splitJob(id: try #require(parent.id), owner: "test:1:a", chunks: [
            PlannedChunk(startSeconds: 0, path: "/home/tmp/part1.flac", endSeconds: 20),
            PlannedChunk(startSeconds: cutInSpeech ? 20 : 20.5, path: "/home/tmp/part2.flac", endSeconds: 40,
                         startsInSpeech: cutInSpeech),
        ], durationSeconds: 40))
        try completeChunks(first: "We are done, okay.", next: "Okay, so we begin.")
        let transcript = try #require(try store.transcript(recordingId: queued[0].recordingId))
        #expect(transcript.text == (cutInSpeech ? "We are done, okay. so we begin." : "We are done, okay. Okay, so we begin."))
    }

    @Test(arguments: [false, true])
    func liveSeamsKeepWordsRepeatedAcrossAPause(cutInSpeech: Bool) throws {
        let (recording, _) = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                                      format: "wav", sampleRate: 16000, channels: 1) { id in ("/audio/\(id).wav", ()) }
        let recordingId = try #require(recording.id)
        let jobId = try #require(try store.queue.beginLivePieces(recordingId: recordingId).id)
        #expect(try store.queue.addLivePiece(jobId: jobId, piece: PlannedChunk(startSeconds: 0, path: "/home/tmp/p1.flac",
                                                                         endSeconds: cutInSpeech ? 30 : 16.25)) != nil)
        let last = PlannedChunk(startSeconds: cutInSpeech ? 30 : 16.75, path: "/home/tmp/p2.flac", endSeconds: 40,
                                startsInSpeech: cutInSpeech)
        #expect(try store.queue.endLivePieces(jobId: jobId, lastPieces: [last], durationSeconds: 40, assemble: assemble)
                == .closed(pieceCount: 2))
        try completeChunks(first: "One, two, three.", next: "Three, four.")
        let transcript = try #require(try store.transcript(recordingId: recordingId))
        #expect(transcript.text == (cutInSpeech ? "One, two, three. four." : "One, two, three. Three, four."))
    }
}
