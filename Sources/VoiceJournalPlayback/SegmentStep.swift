/// Where ↑ and ↓ go: the start of the previous or next transcript segment. Pure: from the
/// segments' starts and where the listener is.
enum SegmentStep {
    /// How far into a segment ↑ restarts it rather than going to the one before (as a
    /// music player's "previous" does).
    static let restartAfter = 1.0
    /// A position this close before a start counts as at it: after a jump the position reads
    /// back a hair early, and ↓ again must go on to the next segment, not the same one.
    static let tolerance = 0.25

    /// The segment being spoken's start when more than `restartAfter` into it, else the
    /// previous segment's start, else the start of the file (0).
    static func previous(from seconds: Double, starts: [Double]) -> Double {
        let sorted = starts.sorted()
        guard let current = sorted.lastIndex(where: { $0 <= seconds + tolerance }) else { return 0 }
        if seconds - sorted[current] > restartAfter { return sorted[current] }
        return current > 0 ? sorted[current - 1] : 0
    }

    /// The next segment's start; nil after the last one starts (↓ then does nothing).
    static func next(from seconds: Double, starts: [Double]) -> Double? {
        starts.sorted().first { $0 > seconds + tolerance }
    }
}
