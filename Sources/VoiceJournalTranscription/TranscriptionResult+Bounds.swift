import Foundation

extension TranscriptionResult {
    /// How far past the end of the audio an answer's time may run and still be the model's
    /// rounding (Whisper ends a last segment on its 30 s window or a 20 ms step).
    package static let endMarginSeconds = 1.0

    /// The answer with every time inside the audio it answers, `seconds` long: a server's
    /// answer is data, and a segment said to start at 9e15 s must not reach the store, a clock
    /// or a frame count. A word lying wholly outside [0, `seconds` + `endMarginSeconds`] is
    /// dropped; a segment so placed with no word left inside is moved to `outsideAudio` (for
    /// the audit); every other time is clamped into [0, `seconds`], and a segment's edges that
    /// lay outside are brought to its words.
    package func bounded(toSeconds seconds: Double) -> TranscriptionResult {
        guard seconds.isFinite, seconds > 0 else { return self }
        let last = seconds + Self.endMarginSeconds
        func inside(_ start: Double, _ end: Double) -> Bool { start <= last && end >= 0 }
        func clamp(_ time: Double) -> Double { min(max(time, 0), seconds) }
        var kept: [Segment] = []
        var outside: [Segment] = []
        for segment in segments {
            var bounded = segment
            bounded.words = segment.words?.filter { inside($0.start, $0.end) }
                .map { Word(start: clamp($0.start), end: max(clamp($0.end), clamp($0.start)), word: $0.word) }
            let words = bounded.words ?? []
            guard inside(segment.start, segment.end) || !words.isEmpty else {
                outside.append(segment.placedForAudit(at: segment.end < 0 ? 0 : seconds))
                continue
            }
            bounded.start = clamp(segment.start)
            bounded.end = max(clamp(segment.end), bounded.start)
            if let first = words.first, !inside(segment.start, segment.start) { bounded.start = first.start }
            if let final = words.last, !inside(segment.end, segment.end) { bounded.end = max(final.end, bounded.start) }
            kept.append(bounded)
        }
        guard !outside.isEmpty || kept != segments else { return self }
        var result = self
        result.segments = kept
        result.outsideAudio += outside
        if !outside.isEmpty {
            result.text = kept.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        return result
    }
}

private extension TranscriptionResult.Segment {
    /// The segment as the audit keeps it: its text, at `seconds` (its own time was nowhere
    /// in the audio).
    func placedForAudit(at seconds: Double) -> TranscriptionResult.Segment {
        var segment = self
        segment.start = seconds
        segment.end = seconds
        segment.words = nil
        return segment
    }
}
