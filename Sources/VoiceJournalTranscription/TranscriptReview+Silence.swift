import Foundation

/// The stretches of speech of one upload on the recording's clock, sorted, for the review's
/// questions: how much of a span is speech, how far a span is from speech.
struct SpeechStretches {
    let ranges: [Range<Double>]

    init(_ ranges: [Range<Double>]) {
        self.ranges = ranges.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// What an instant or a zero-length word weighs: it is in speech or not, not nothing.
    static let instant = 0.01

    /// Index of the first stretch ending after `time`.
    private func firstIndex(endingAfter time: Double) -> Int {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Seconds of speech in `start…end`, and the seconds the span counts for: its speech plus
    /// its silence, where a pause between two stretches inside the span counts at most
    /// `pauseAllowance`. A span of no length weighs `instant`, all speech when it lies in a stretch.
    func weigh(from start: Double, to end: Double, pauseAllowance: Double) -> (speech: Double, total: Double) {
        guard end > start else {
            let inside = ranges.contains { $0.lowerBound <= start && start <= $0.upperBound }
            return (inside ? Self.instant : 0, Self.instant)
        }
        var speech = 0.0, silence = 0.0, cursor = start, afterSpeech = false
        var index = firstIndex(endingAfter: start)
        while index < ranges.count, ranges[index].lowerBound < end {
            let low = max(ranges[index].lowerBound, start), high = min(ranges[index].upperBound, end)
            let gap = max(0, low - cursor)
            silence += afterSpeech ? min(gap, pauseAllowance) : gap
            speech += high - low
            cursor = high
            afterSpeech = true
            index += 1
        }
        silence += max(0, end - cursor)
        return (speech, speech + silence)
    }

    /// Seconds of `range` that lie in speech.
    func overlap(_ range: Range<Double>) -> Double {
        weigh(from: range.lowerBound, to: range.upperBound, pauseAllowance: 0).speech
    }

    /// How far `start…end` is from the nearest speech (0 when it touches some); infinite with none.
    func distance(from start: Double, to end: Double) -> Double {
        let index = firstIndex(endingAfter: start)
        var nearest = Double.infinity
        if index < ranges.count { nearest = max(0, ranges[index].lowerBound - end) }
        if index > 0 { nearest = min(nearest, max(0, start - ranges[index - 1].upperBound)) }
        return nearest
    }
}

extension TranscriptReview {
    /// Whether less than `silenceOverlapFraction` of the segment's time (its words' time when
    /// it has words) lies in speech.
    func isOverSilence(_ segment: TranscriptionResult.Segment, speech: SpeechStretches) -> Bool {
        var inSpeech = 0.0, total = 0.0
        if let words = segment.words, !words.isEmpty {
            for word in words {
                let weight = speech.weigh(from: word.start, to: word.end, pauseAllowance: settings.pauseAllowanceSeconds)
                inSpeech += weight.speech
                total += weight.total
            }
        } else {
            (inSpeech, total) = speech.weigh(from: segment.start, to: segment.end, pauseAllowance: settings.pauseAllowanceSeconds)
        }
        return total <= 0 || inSpeech < settings.silenceOverlapFraction * total
    }

    /// A kept segment without its words that lie further than `silentWordMarginSeconds` from
    /// any speech, and those words; the segment as it is when none (or all) are that far.
    func withoutSilentWords(_ segment: TranscriptionResult.Segment, speech: SpeechStretches)
        -> (kept: TranscriptionResult.Segment, removed: TranscriptionResult.Segment?) {
        guard let words = segment.words, !words.isEmpty else { return (segment, nil) }
        let silent = Set(words.indices.filter {
            speech.distance(from: words[$0].start, to: words[$0].end) > settings.silentWordMarginSeconds
        })
        guard silent.count < words.count else { return (segment, nil) }
        return SegmentTokens(segment).removingWords(silent)
    }
}
