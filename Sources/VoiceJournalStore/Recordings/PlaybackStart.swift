/// Where listening to a moment of a recording starts: at most a second before the segment
/// that holds it, on a whole second (so the clock text of a ready command, `--at 04:50`, says
/// exactly where), never before the recording's start. One rule for search hits, a
/// transcript's segments and `play --search`.
package enum PlaybackStart {
    /// Whole seconds on the recording's clock: ceil(`segmentStart` − 1), at least 0; 0 for a
    /// moment with no time (a match in an entry's text, a transcript without segments).
    package static func seconds(before segmentStart: Double?) -> Double {
        guard let segmentStart, segmentStart.isFinite else { return 0 }
        return max(0, (segmentStart - 1).rounded(.up))
    }
}

extension SearchHit {
    /// Where listening to this hit starts (see `PlaybackStart`).
    package var playbackStart: Double { PlaybackStart.seconds(before: segmentStart) }
}

extension Transcript.Segment {
    /// Where listening to this segment starts (see `PlaybackStart`).
    package var playbackStart: Double { PlaybackStart.seconds(before: start) }
}
