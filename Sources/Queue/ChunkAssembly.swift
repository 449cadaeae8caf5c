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
                    segments: result.segments.map(TranscriptionResult.Segment.init), model: result.model))
            }
        }
        let stitched = TranscriptStitcher.stitch(transcripts, durationSeconds: durationSeconds)
        // What each chunk left out and did not hear, on the recording's clock.
        var unheard: [Transcript.Gap] = []
        var leftOut: [Transcript.LeftOut] = []
        var sent: Double?
        var resends = 0
        for chunk in chunks {
            guard let result = chunk.result else { continue }
            let offset = chunk.startSeconds
            unheard += (result.unheard ?? []).map { .init(start: $0.start + offset, end: $0.end + offset) }
            leftOut += (result.leftOut ?? []).map { .init(start: $0.start + offset, end: $0.end + offset, text: $0.text, reason: $0.reason) }
            if let seconds = result.audioSentSeconds { sent = (sent ?? 0) + seconds }
            resends += result.resends ?? 0
        }
        return Transcript(recordingId: recordingId, text: stitched.text.trimmingCharacters(in: .whitespacesAndNewlines),
                          language: stitched.language, model: stitched.model,
                          segments: stitched.segments.map(Transcript.Segment.init),
                          unheard: unheard, leftOut: leftOut, audioSentSeconds: sent, resends: resends)
    }
}

extension TranscriptionResult.Segment {
    /// A stored segment, to be stitched again.
    init(_ segment: Transcript.Segment) {
        self.init(start: segment.start, end: segment.end, text: segment.text, avgLogprob: segment.avgLogprob,
                  noSpeechProb: segment.noSpeechProb,
                  words: segment.words.map { $0.map { TranscriptionResult.Word(start: $0.start, end: $0.end, word: $0.word) } })
    }
}
