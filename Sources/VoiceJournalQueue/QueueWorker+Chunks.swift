import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

/// A chunk's child job: upload its file, keep its result, and assemble the recording's
/// transcript when it is the last.
extension Worker {
    func processChunk(_ job: Job, jobId: Int64, chunk: JobChunk, on connection: WhisperConnection) throws {
        let recording = try queue.recording(id: job.recordingId)
        let path = recording?.path ?? chunk.path
        let file = URL(fileURLWithPath: chunk.path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let started = ProcessInfo.processInfo.systemUptime
        // What the chunk's upload holds and where its speech is (nil: a plan from before maps).
        let map = TimeMap(json: chunk.timeMap)
        let request = TranscriptionRequest(file: file, filename: "\(name).part\(chunk.index + 1).\(file.pathExtension)",
                                           options: try options(for: job.recordingId),
                                           audioSeconds: map?.sentSeconds ?? chunk.seconds)
        // Chunks are cut around measured speech (unless told to send everything).
        guard let result = try upload(request, on: connection, job: job, jobId: jobId, path: path, audioSeconds: nil,
                                      expectsSpeech: runner.options.upload.trim) else { return }
        let reviewed = reviewed(result, source: file, map: map, sentSeconds: chunk.seconds ?? result.durationSeconds ?? 0,
                                request: request, jobId: jobId, on: connection)
        // A live piece is a chunk too: its translation is asked as it comes.
        let translation = try translation(of: request, transcript: reviewed.result, map: map, recordingId: job.recordingId,
                                          jobId: jobId, path: path, place: "chunk \(chunk.index + 1): ", on: connection)
        let stored = ChunkResult(text: reviewed.result.text, language: Self.language(of: result, sent: request), model: result.model,
                                 segments: reviewed.result.segments.map(Transcript.Segment.init),
                                 unheard: reviewed.storedUnheard, leftOut: reviewed.storedLeftOut,
                                 audioSentSeconds: reviewed.sentSeconds, resends: reviewed.resends,
                                 translation: translation.text,
                                 translationSegments: translation.text == nil ? nil : translation.segments,
                                 translationNote: translation.note)
        let completion = try queue.completeChunk(jobId: jobId, owner: owner, result: stored) { chunks in
            Transcript.assembled(chunks, recordingId: job.recordingId, durationSeconds: recording?.durationSeconds)
        }
        switch completion {
        case .dropped:
            runner.logger.warning("dropped a chunk's result: the job was cancelled or taken over", metadata: ["job": "\(jobId)"])
        case let .stored(parentJobId, done, total):
            runner.logger.debug("chunk transcribed", metadata: ["job": "\(jobId)", "chunk": "\(chunk.index + 1)"])
            run.onEvent(.chunksDone(jobId: parentJobId, path: path, done: done, total: total))
        case .assembled(let parentJobId, let paths):
            paths.forEach(ChunkFiles.remove)
            run.summary.withLock { $0.transcribed += 1 }
            run.onEvent(.transcribed(jobId: parentJobId, path: path, seconds: ProcessInfo.processInfo.systemUptime - started))
        }
    }
}
