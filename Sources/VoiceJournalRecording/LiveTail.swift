import VoiceJournalAudio
import Foundation
import VoiceJournalSystem
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalTranscription

/// The end of a live recording's pieces: the part of the audio no piece covers yet is
/// planned from the file (after a killed recorder, or when the pieces stopped mid-way),
/// and the plan is closed, so the transcript is assembled without uploading any piece twice.
enum LiveTail {
    /// Plans and encodes pieces for the file's audio after `cursor` (a sample at 16 kHz),
    /// numbered from `firstIndex`.
    static func pieces(of url: URL, after cursor: Int64, jobId: Int64, firstIndex: Int, files: ChunkFiles,
                       cutter: LivePieceCutter) throws -> [PlannedChunk] {
        let stream = try MonoPCMStream(url: url, sampleRate: ChunkFiles.sampleRate)
        var map = SpeechMap(sampleRate: ChunkFiles.sampleRate)
        while let block = try stream.next() { map.append(block) }
        let speech = map.speechRanges
        let chunks = cutter.lastPieces(speech: speech, cursor: cursor, sampleCount: map.sampleCount,
                                       sampleRate: ChunkFiles.sampleRate).map { PauseShortening().shortened($0, speech: speech) }
        let paths = chunks.indices.map { files.url(jobId: jobId, index: firstIndex + $0, codec: .flac) }
        do {
            try files.createFolder()
            try ChunkFiles.encode(url, chunks: chunks, to: paths, codec: .flac)
        } catch {
            paths.forEach(ChunkFiles.remove)
            throw error
        }
        return zip(chunks, paths).map {
            PlannedChunk(startSeconds: $0.startSeconds, path: $1.path, endSeconds: $0.endSeconds, startsInSpeech: $0.startsInSpeech,
                         timeMap: $0.timeMap.json)
        }
    }

    /// Queues the last pieces and closes the plan; removes the files no job needs then.
    static func end(jobId: Int64, recordingId: Int64, lastPieces: [PlannedChunk], durationSeconds: Double,
                    queue: JobQueue) throws -> LivePlanEnding {
        let ending: LivePlanEnding
        do {
            ending = try queue.endLivePieces(jobId: jobId, lastPieces: lastPieces, durationSeconds: durationSeconds) { chunks in
                Transcript.assembled(chunks, recordingId: recordingId, durationSeconds: durationSeconds)
            }
        } catch {
            lastPieces.forEach { ChunkFiles.remove(path: $0.path) }
            throw error
        }
        switch ending {
        case .assembled(let paths): paths.forEach(ChunkFiles.remove(path:))
        case .gone: lastPieces.forEach { ChunkFiles.remove(path: $0.path) }
        case .noPieces, .closed: break
        }
        return ending
    }

    /// Closes the open plan of a recording whose recorder died, queueing pieces for the audio
    /// after its last piece. Returns nil when the recording had no open plan.
    static func complete(_ recording: Recording, url: URL, durationSeconds: Double, queue: JobQueue,
                         logger: Logger) throws -> LivePlanEnding? {
        guard let id = recording.id, let plan = try queue.livePlan(recordingId: id), plan.isOpen else { return nil }
        let files = ChunkFiles(home: queue.home, owner: LeaseOwner.current())
        let cursor = frameCount(seconds: plan.coveredSeconds, rate: Double(ChunkFiles.sampleRate))
        // With no piece yet the file goes as it is, as a take that was never cut.
        let pieces = plan.pieceCount == 0 ? [] : try Self.pieces(of: url, after: cursor, jobId: plan.jobId,
                                                                 firstIndex: plan.pieceCount, files: files, cutter: LivePieceCutter())
        logger.info("queued the rest of an interrupted live recording",
                    metadata: ["id": "\(id)", "after": "\(plan.coveredSeconds)", "pieces": "\(pieces.count)"])
        return try end(jobId: plan.jobId, recordingId: id, lastPieces: pieces, durationSeconds: durationSeconds, queue: queue)
    }
}
