import Foundation

/// Judges one upload's answer against where speech is: which segments to keep, which to
/// leave out (and why), which stretches of speech got no words, and which repetition loops
/// to send again.
///
/// The rules, in the order they are applied to each segment:
/// 1. A segment with no words in its text is dropped without a trace (nothing to audit).
/// 2. **No speech**: the model's own verdict, Whisper's thresholds — `noSpeechProb` above
///    `noSpeechProbability` with `avgLogprob` below `failedLogprob` (both strictly).
/// 3. **Silence**: less than `silenceOverlapFraction` of the segment's time lies in speech.
///    With words, the time is the words' own time (the pauses between words do not count);
///    without, the segment's span. Either way a pause between two stretches the segment
///    reaches counts at most `pauseAllowanceSeconds`: a segment that runs from one sentence
///    over a thinking pause into the next is speech, not silence, whatever the pause's length.
///    A kept segment with words also loses the single words lying more than
///    `silentWordMarginSeconds` from any speech (words Whisper tacks on over a pause, "Thank
///    you."); they are left out as silence and the segment's text and span follow its words.
/// 4. **Repetition**: a phrase of 1…`longestLoopPhraseWords` words (compared in lowercase,
///    letters and digits only) said `loopRepeats` or more times in a row inside a segment
///    keeps its first occurrence; the rest is left out. Across consecutive kept segments,
///    segments that are the same phrase (once or more each) `loopRepeats` or more times in
///    all keep the first occurrence. A segment whose `compressionRatio` is above
///    `loopCompressionRatio` and in which no repetition could be cut is left out whole.
///    Each loop's region (from its first occurrence to the end of its last) is named, to be
///    sent again once.
///
/// Coverage: a stretch of speech at least `shortestCheckedSpeechSeconds` long is covered when
/// the kept segments overlap it by at least `coveredFraction` of its length or
/// `coveredSeconds`, whichever is less. A segment with words covers only where its words are
/// (words closer than `pauseAllowanceSeconds` join into one span), so a segment whose words jump
/// from one stretch over a skipped one to a third does not cover the skipped one. A loop's
/// region counts as covering what it overlaps: sending the loop again hears that speech, and
/// it is not sent twice.
///
/// All times are on one clock (the recording's); `speech` is expected in order and not
/// overlapping (it is sorted here anyway). With no speech stretches at all every segment is
/// over silence: a caller that did not look for speech passes the span it sent instead.
package struct TranscriptReview: Sendable {
    /// The thresholds of the review.
    package struct Settings: Sendable, Equatable {
        /// Stretches of speech shorter than this are not checked for coverage (not re-sent).
        package var shortestCheckedSpeechSeconds: Double
        /// Whisper's no-speech threshold: above it, with `avgLogprob` below `failedLogprob`,
        /// the model itself says no one spoke.
        package var noSpeechProbability: Double
        /// Whisper's failed-decode threshold for the mean log probability.
        package var failedLogprob: Double
        /// Whisper's threshold for a segment's gzip compression ratio: above it the text repeats.
        package var loopCompressionRatio: Double
        /// The same phrase this many times in a row is a loop.
        package var loopRepeats: Int
        /// The longest phrase, in words, looked for as a loop.
        package var longestLoopPhraseWords: Int
        /// A segment with less than this share of its time in speech is over silence.
        package var silenceOverlapFraction: Double
        /// The most a pause between two stretches of speech inside one segment (or word)
        /// counts as silence.
        package var pauseAllowanceSeconds: Double
        /// A word of a kept segment further than this from any speech is left out.
        package var silentWordMarginSeconds: Double
        /// A stretch is covered when kept words overlap this share of it…
        package var coveredFraction: Double
        /// …or this many seconds of it, whichever is less.
        package var coveredSeconds: Double

        package init(shortestCheckedSpeechSeconds: Double = 1.0, noSpeechProbability: Double = 0.6,
                    failedLogprob: Double = -1.0, loopCompressionRatio: Double = 2.4, loopRepeats: Int = 3,
                    longestLoopPhraseWords: Int = 12, silenceOverlapFraction: Double = 0.2,
                    pauseAllowanceSeconds: Double = 1.0, silentWordMarginSeconds: Double = 0.5,
                    coveredFraction: Double = 0.3, coveredSeconds: Double = 0.5) {
            self.shortestCheckedSpeechSeconds = shortestCheckedSpeechSeconds
            self.noSpeechProbability = noSpeechProbability
            self.failedLogprob = failedLogprob
            self.loopCompressionRatio = loopCompressionRatio
            self.loopRepeats = loopRepeats
            self.longestLoopPhraseWords = longestLoopPhraseWords
            self.silenceOverlapFraction = silenceOverlapFraction
            self.pauseAllowanceSeconds = pauseAllowanceSeconds
            self.silentWordMarginSeconds = silentWordMarginSeconds
            self.coveredFraction = coveredFraction
            self.coveredSeconds = coveredSeconds
        }
    }

    /// What the review decided about one answer.
    package struct Verdict: Sendable, Equatable {
        /// The segments the stored text is made of, in the answer's order.
        package var kept: [TranscriptionResult.Segment]
        /// Segments, or the parts of segments, left out, each with why, in time order.
        package var leftOut: [LeftOutSegment]
        /// Stretches of speech (at least `shortestCheckedSpeechSeconds`) no kept segment covers.
        package var uncovered: [Range<Double>]
        /// Regions of repetition loops, in time order, not overlapping: to send again once.
        package var loops: [Range<Double>]

        package init(kept: [TranscriptionResult.Segment] = [], leftOut: [LeftOutSegment] = [],
                    uncovered: [Range<Double>] = [], loops: [Range<Double>] = []) {
            self.kept = kept
            self.leftOut = leftOut
            self.uncovered = uncovered
            self.loops = loops
        }
    }

    package let settings: Settings

    package init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Reviews one answer. `segments`: the answer's segments with times already on the
    /// recording's clock; `speech`: the upload's stretches of speech on that clock.
    package func review(_ segments: [TranscriptionResult.Segment], speech: [Range<Double>]) -> Verdict {
        let speech = SpeechStretches(speech)
        var verdict = Verdict()
        var candidates: [TranscriptionResult.Segment] = []
        for var segment in segments {
            guard !SegmentTokens.keys(segment.text).isEmpty else { continue }
            // A time that is not a number cannot be placed: a segment with one keeps its text
            // without word timings; a segment whose own times are such is left out as if over silence.
            if segment.words?.contains(where: { !$0.start.isFinite || !$0.end.isFinite }) == true { segment.words = nil }
            if !segment.start.isFinite || !segment.end.isFinite {
                verdict.leftOut.append(LeftOutSegment(segment: segment, reason: .silence))
            } else if isNoSpeech(segment) {
                verdict.leftOut.append(LeftOutSegment(segment: segment, reason: .noSpeech))
            } else if isOverSilence(segment, speech: speech) {
                verdict.leftOut.append(LeftOutSegment(segment: segment, reason: .silence))
            } else {
                let trimmed = withoutSilentWords(segment, speech: speech)
                if let removed = trimmed.removed {
                    verdict.leftOut.append(LeftOutSegment(segment: removed, reason: .silence))
                }
                candidates.append(trimmed.kept)
            }
        }
        let loops = cutLoops(candidates)
        verdict.kept = loops.kept
        // In time order for the audit record (at equal starts, in the order found).
        verdict.leftOut = (verdict.leftOut + loops.leftOut).enumerated().sorted {
            ($0.element.segment.start, $0.offset) < ($1.element.segment.start, $1.offset)
        }.map(\.element)
        verdict.loops = Self.joined(loops.regions)
        verdict.uncovered = uncovered(speech, by: verdict.kept, loops: verdict.loops)
        return verdict
    }

    /// Whether the model itself says no one spoke (Whisper's rule: both thresholds crossed).
    func isNoSpeech(_ segment: TranscriptionResult.Segment) -> Bool {
        guard let noSpeech = segment.noSpeechProb, let logprob = segment.avgLogprob else { return false }
        return noSpeech > settings.noSpeechProbability && logprob < settings.failedLogprob
    }

    /// Ranges sorted and joined where they overlap or touch.
    static func joined(_ ranges: [Range<Double>]) -> [Range<Double>] {
        var result: [Range<Double>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}

/// The review's verdict on one answer (`TranscriptReview.Verdict`).
package typealias ReviewVerdict = TranscriptReview.Verdict

/// Why text the server answered is not in the stored transcript (the stored `LeftOut.reason`).
package enum LeftOutReason: String, Sendable, Equatable, CaseIterable {
    /// Its time lies where no one spoke.
    case silence
    /// The model's own no-speech probability and log probability say no one spoke.
    case noSpeech = "no-speech"
    /// A phrase said again and again (a repetition loop).
    case repetition
    /// Its time lies outside the audio that was sent (a server's answer out of bounds).
    case outsideAudio = "outside-audio"
}

/// A segment, or the removed part of one, left out of the stored text, with why.
package struct LeftOutSegment: Sendable, Equatable {
    /// What was left out: a whole segment, or the words removed from one (their text, their
    /// words when the server gave them, and the time they took, estimated from the segment's
    /// span when it has no words).
    package var segment: TranscriptionResult.Segment
    package var reason: LeftOutReason

    package init(segment: TranscriptionResult.Segment, reason: LeftOutReason) {
        self.segment = segment
        self.reason = reason
    }
}
