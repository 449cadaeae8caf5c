import Foundation

/// The bounds an archive's transcript review must keep (segments' confidence and words,
/// unheard stretches, left-out text, what a chunk's result carries): an import takes them
/// as untrusted data, so every count is bounded, every number finite and in its range,
/// every stretch starts before it ends, every reason one voicejournal gives, and every
/// string of a bounded length. Each check names the first problem in words, or nil.
enum TranscriptCheck {
    /// The most words, stretches or left-out pieces one transcript (or chunk) may hold, and
    /// the most re-sends: far past any recording (a day of speech is ~200,000 words, in
    /// segments of ~30 words a few thousand each).
    static let maxCount = 100_000
    /// The longest word, and the longest left-out text, in characters.
    static let maxWordLength = 1_000
    static let maxLeftOutLength = 100_000
    /// Log probabilities are at most 0; below this one no decode means anything.
    static let lowestLogprob = -1_000.0
    /// The reasons the review gives for leaving text out.
    static let reasons: Set<String> = ["silence", "no-speech", "repetition", "outside-audio"]

    /// A problem with segments' confidence and words.
    static func problem(_ segments: [Transcript.Segment]) -> String? {
        var words = 0
        for (index, segment) in segments.enumerated() {
            let place = "segment \(index + 1)"
            if let value = segment.avgLogprob, !(value.isFinite && value >= lowestLogprob && value <= 0) {
                return "has \(place) with avgLogprob \(value); it must be a number between \(Int(lowestLogprob)) and 0"
            }
            if let value = segment.noSpeechProb, !(value.isFinite && value >= 0 && value <= 1) {
                return "has \(place) with noSpeechProb \(value); it must be a probability between 0 and 1"
            }
            guard let list = segment.words else { continue }
            words += list.count
            if words > maxCount { return "holds more than \(maxCount) words" }
            for word in list {
                if let problem = stretch(word.start, word.end) { return "has a word in \(place) that \(problem)" }
                if word.word.count > maxWordLength { return "has a word in \(place) longer than \(maxWordLength) characters" }
            }
        }
        return nil
    }

    /// A problem with unheard stretches.
    static func problem(_ gaps: [Transcript.Gap]) -> String? {
        if gaps.count > maxCount { return "holds more than \(maxCount) stretches" }
        for (index, gap) in gaps.enumerated() {
            if let problem = stretch(gap.start, gap.end) { return "has stretch \(index + 1) that \(problem)" }
        }
        return nil
    }

    /// A problem with left-out text.
    static func problem(_ leftOut: [Transcript.LeftOut]) -> String? {
        if leftOut.count > maxCount { return "holds more than \(maxCount) pieces" }
        for (index, piece) in leftOut.enumerated() {
            if let problem = stretch(piece.start, piece.end) { return "has piece \(index + 1) that \(problem)" }
            if !reasons.contains(piece.reason) {
                return "has piece \(index + 1) with reason \(ArchiveRowCheck.shown(.text(piece.reason))); it must be one of "
                    + reasons.sorted().joined(separator: ", ")
            }
            if piece.text.count > maxLeftOutLength { return "has piece \(index + 1) longer than \(maxLeftOutLength) characters" }
        }
        return nil
    }

    /// A problem with what a chunk's result carries besides its text.
    static func problem(_ result: ChunkResult) -> String? {
        if let problem = problem(result.segments) ?? problem(result.unheard ?? []) ?? problem(result.leftOut ?? []) {
            return problem
        }
        if let problem = problem(result.translationSegments ?? []) { return "has a translation that " + problem }
        if let sent = result.audioSentSeconds, !(sent.isFinite && sent >= 0 && sent <= ArchiveRowCheck.maxSeconds) {
            return "has audioSentSeconds \(sent); it must be seconds between 0 and \(Int(ArchiveRowCheck.maxSeconds))"
        }
        if let resends = result.resends, !(0...maxCount).contains(resends) {
            return "has resends \(resends); it must be a count between 0 and \(maxCount)"
        }
        return nil
    }

    /// Why `start`–`end` is no stretch of a recording, or nil: both finite, 0 ≤ start ≤ end ≤ `maxSeconds`.
    private static func stretch(_ start: Double, _ end: Double) -> String? {
        guard start.isFinite, end.isFinite, start >= 0, end <= ArchiveRowCheck.maxSeconds else {
            return "is not between 0 and \(Int(ArchiveRowCheck.maxSeconds)) seconds"
        }
        return start <= end ? nil : "ends (\(end) s) before it starts (\(start) s)"
    }
}
