import Foundation
import Store
import Transcription

extension Transcript {
    /// One transcript of the recording from its chunks' (in order), on its original timeline.
    package static func assembled(_ chunks: [JobChunk], recordingId: Int64, durationSeconds: Double?) -> Transcript {
        let transcripts = chunks.compactMap { chunk in
            chunk.result.map { result in
                // Chunks planned before seams were recorded are stitched as they were then.
                ChunkTranscript(startSeconds: chunk.startSeconds, endSeconds: chunk.endSeconds,
                                startsInSpeech: chunk.startsInSpeech ?? true, result: TranscriptionResult(
                    text: result.text, language: result.language,
                    segments: result.segments.map { .init(start: $0.start, end: $0.end, text: $0.text) }, model: result.model))
            }
        }
        let stitched = TranscriptStitcher.stitch(transcripts, durationSeconds: durationSeconds)
        return Transcript(recordingId: recordingId, text: stitched.text.trimmingCharacters(in: .whitespacesAndNewlines),
                          language: stitched.language, model: stitched.model,
                          segments: stitched.segments.map { .init(start: $0.start, end: $0.end, text: $0.text) })
    }
}
