import Foundation

extension TranscriptReview {
    /// The stretches of speech at least `shortestCheckedSpeechSeconds` long that neither the
    /// kept segments nor the loops' regions (to be sent again anyway) cover.
    func uncovered(_ speech: SpeechStretches, by kept: [TranscriptionResult.Segment], loops: [Range<Double>]) -> [Range<Double>] {
        let heard = SpeechStretches(Self.joined(kept.flatMap { heardSpans(of: $0) } + loops))
        return speech.ranges.filter { stretch in
            let length = stretch.upperBound - stretch.lowerBound
            guard length >= settings.shortestCheckedSpeechSeconds else { return false }
            let needed = min(settings.coveredFraction * length, settings.coveredSeconds)
            return heard.overlap(stretch) < needed
        }
    }

    /// Where a segment says words were heard: its words' time (words closer than
    /// `pauseAllowanceSeconds` join into one span), or its span when it has no words.
    func heardSpans(of segment: TranscriptionResult.Segment) -> [Range<Double>] {
        guard let words = segment.words, !words.isEmpty else {
            return [segment.start..<max(segment.end, segment.start)]
        }
        var spans: [Range<Double>] = []
        for word in words {
            let span = word.start..<max(word.end, word.start)
            if let last = spans.last, span.lowerBound - last.upperBound <= settings.pauseAllowanceSeconds {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// Merges the kept segments of a re-send into `kept`, in time order (by start; at equal
    /// starts, what was kept first). With `replacing` (a loop sent again), what was kept inside
    /// that region gives way to the re-send: segments whose middle lies in it go, and of a
    /// segment with words that reaches into it, the words whose middle lies in it. An empty
    /// re-send replaces nothing (the one occurrence of the loop stays). A re-sent segment
    /// saying the same words as a kept one it overlaps in time is not added twice.
    package static func merged(_ kept: [TranscriptionResult.Segment], with resent: [TranscriptionResult.Segment],
                              replacing region: Range<Double>?) -> [TranscriptionResult.Segment] {
        guard !resent.isEmpty else { return kept }
        var base = kept
        if let region {
            base = kept.compactMap { segment in without(region, segment) }
        }
        let added = resent.filter { new in
            !base.contains { old in
                old.start < new.end && new.start < old.end && SegmentTokens.keys(old.text) == SegmentTokens.keys(new.text)
            }
        }
        let tagged = base.map { ($0, 0) } + added.map { ($0, 1) }
        return tagged.enumerated().sorted { left, right in
            let (a, b) = (left.element.0, right.element.0)
            if a.start != b.start { return a.start < b.start }
            if left.element.1 != right.element.1 { return left.element.1 < right.element.1 }
            return left.offset < right.offset
        }.map(\.element.0)
    }

    /// A kept segment without what lies in `region`; nil when nothing of it is left.
    private static func without(_ region: Range<Double>, _ segment: TranscriptionResult.Segment) -> TranscriptionResult.Segment? {
        let inRegion = { (start: Double, end: Double) in region.contains((start + end) / 2) }
        guard let words = segment.words, !words.isEmpty else {
            return inRegion(segment.start, segment.end) ? nil : segment
        }
        let inside = Set(words.indices.filter { inRegion(words[$0].start, words[$0].end) })
        if inside.count == words.count { return nil }
        let kept = SegmentTokens(segment).removingWords(inside).kept
        return SegmentTokens.keys(kept.text).isEmpty ? nil : kept
    }

    /// The fewest words per second of speech a recording is taken to say when its own rate is
    /// not known yet: below it a text-only answer (no times to check) is suspect.
    package static let slowestSpeechWordsPerSecond = 0.5
    /// Against the recording's own rate, an answer with less than this share of the words
    /// expected is suspect.
    package static let fewestWordsShare = 0.4

    /// For answers with text only (gpt-4o transcribe with json): whether `words` words for
    /// `speechSeconds` of speech is too few against `expectedWordsPerSecond` (the recording's
    /// own rate from its other uploads when known, else `slowestSpeechWordsPerSecond`).
    /// No words at all for a checked stretch (`Settings().shortestCheckedSpeechSeconds` or
    /// more) is always too few; less speech than that is never judged.
    package static func tooFewWords(words: Int, speechSeconds: Double, expectedWordsPerSecond: Double?) -> Bool {
        guard speechSeconds >= Settings().shortestCheckedSpeechSeconds else { return false }
        if words <= 0 { return true }
        let threshold = expectedWordsPerSecond.map { $0 * fewestWordsShare } ?? slowestSpeechWordsPerSecond
        return Double(words) < threshold * speechSeconds
    }
}
