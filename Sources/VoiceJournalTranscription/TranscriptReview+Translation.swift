import Foundation

extension TranscriptReview {
    /// A translation's answer with its repetition loops cut: rule 4 of the review alone (a
    /// phrase said `loopRepeats` or more times in a row keeps its first occurrence, within a
    /// segment and across segments; a segment whose compression ratio is above
    /// `loopCompressionRatio` with no repetition to cut is left out). Whisper's translate task
    /// loops as its transcription does ("bike… cold, cold, cold…"), and a loop is never a
    /// translation of anything.
    ///
    /// The other rules are not applied: a translation's segments are sentences of another
    /// language, timed loosely, with no words, so they cannot be held against where the
    /// speech is, and nothing is sent again for them. An answer without segments (text only)
    /// has its text cut the same way. The text is rebuilt from the kept segments only when
    /// something was cut; otherwise the answer is returned as it came.
    package func withoutLoops(_ result: TranscriptionResult) -> (result: TranscriptionResult, leftOut: [LeftOutSegment]) {
        var result = result
        guard !result.segments.isEmpty else {
            let whole = TranscriptionResult.Segment(start: 0, end: result.durationSeconds ?? 0, text: result.text)
            let tokens = SegmentTokens(whole)
            let runs = RepeatRun.find(in: tokens.texts, minimumRepeats: settings.loopRepeats,
                                      longestPhrase: settings.longestLoopPhraseWords)
            let cut = Self.cut(tokens, textRuns: runs, wordRuns: [])
            guard let removed = cut.removed else { return (result, []) }
            result.text = cut.kept.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return (result, [LeftOutSegment(segment: removed, reason: .repetition)])
        }
        // Segments without a word say nothing (and cannot loop): left as they are out of the count.
        let spoken = result.segments.filter { !SegmentTokens.keys($0.text).isEmpty }
        let cut = cutLoops(spoken)
        guard !cut.leftOut.isEmpty else { return (result, []) }
        result.segments = cut.kept
        result.text = cut.kept.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return (result, cut.leftOut)
    }
}
