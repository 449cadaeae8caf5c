import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

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
        let translation = assembledTranslation(chunks, durationSeconds: durationSeconds)
        return Transcript(recordingId: recordingId, text: stitched.text.trimmingCharacters(in: .whitespacesAndNewlines),
                          language: stitched.language, model: stitched.model,
                          segments: stitched.segments.map(Transcript.Segment.init),
                          unheard: unheard, leftOut: leftOut, audioSentSeconds: sent, resends: resends,
                          translation: translation.text, translationSegments: translation.segments, translationNote: translation.note)
    }

    /// The chunks' translations stitched as their transcripts are, onto the recording's
    /// timeline (the same seams, the same rule for words heard twice). A chunk that was not
    /// translated because it is English already stands in with its own text, so a recording
    /// that mixes languages reads whole in English. When a chunk's translation is missing
    /// (its note says why), the note is kept too: the first such chunk's, naming it. Nothing
    /// when no chunk was translated or asked to be.
    static func assembledTranslation(_ chunks: [JobChunk], durationSeconds: Double?)
        -> (text: String?, segments: [Transcript.Segment], note: String?) {
        let results = chunks.compactMap(\.result)
        let noted = chunks.first { $0.result?.translationNote != nil }
        guard results.contains(where: { $0.translation != nil }) else { return (nil, [], noted?.result?.translationNote) }
        // Some chunks were translated: the note names the first one that was not.
        let note = noted.flatMap { chunk in chunk.result?.translationNote.map { "chunk \(chunk.index + 1): \($0)" } }
        let pieces = chunks.compactMap { chunk -> ChunkTranscript? in
            guard let result = chunk.result else { return nil }
            let text: String, segments: [Transcript.Segment]
            if let translation = result.translation {
                (text, segments) = (translation, result.translationSegments ?? [])
            } else if result.translationNote == nil {
                // Not asked, or English already: its words are the translation.
                (text, segments) = (result.text, result.segments)
            } else {
                return nil
            }
            return ChunkTranscript(startSeconds: chunk.startSeconds, endSeconds: chunk.endSeconds,
                                   startsInSpeech: chunk.startsInSpeech ?? true, result: TranscriptionResult(
                                       text: text, segments: segments.map(TranscriptionResult.Segment.init), model: result.model))
        }
        let stitched = TranscriptStitcher.stitch(pieces, durationSeconds: durationSeconds)
        return (stitched.text.trimmingCharacters(in: .whitespacesAndNewlines), stitched.segments.map(Transcript.Segment.init), note)
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
