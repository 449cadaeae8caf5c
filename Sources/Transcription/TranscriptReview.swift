import Foundation

// Placeholder with the agreed API; the full review replaces this file.
public struct TranscriptReview: Sendable {
    public struct Settings: Sendable, Equatable {
        public var shortestCheckedSpeechSeconds = 1.0
        public init() {}
    }

    public struct Verdict: Sendable, Equatable {
        public var kept: [TranscriptionResult.Segment]
        public var leftOut: [LeftOutSegment]
        public var uncovered: [Range<Double>]
        public var loops: [Range<Double>]
    }

    public let settings: Settings
    public init(settings: Settings = Settings()) { self.settings = settings }

    public func review(_ segments: [TranscriptionResult.Segment], speech: [Range<Double>]) -> Verdict {
        let uncovered = speech.filter { stretch in
            stretch.upperBound - stretch.lowerBound >= settings.shortestCheckedSpeechSeconds
                && !segments.contains { $0.start < stretch.upperBound && $0.end > stretch.lowerBound }
        }
        return Verdict(kept: segments, leftOut: [], uncovered: uncovered, loops: [])
    }

    public static func merged(_ kept: [TranscriptionResult.Segment], with resent: [TranscriptionResult.Segment],
                              replacing region: Range<Double>?) -> [TranscriptionResult.Segment] {
        var all = kept
        if let region { all.removeAll { $0.start >= region.lowerBound && $0.end <= region.upperBound } }
        return (all + resent).sorted { $0.start < $1.start }
    }

    public static func tooFewWords(words: Int, speechSeconds: Double, expectedWordsPerSecond: Double?) -> Bool { false }
}

public struct LeftOutSegment: Sendable, Equatable {
    public var segment: TranscriptionResult.Segment
    public var reason: LeftOutReason
}

public enum LeftOutReason: String, Sendable { case silence, noSpeech = "no-speech", repetition }
