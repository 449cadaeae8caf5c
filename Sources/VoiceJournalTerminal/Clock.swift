/// Durations as clock text, in the three shapes voicejournal prints: elapsed time in
/// summaries and progress (`1:05`, `1:02:03`), the meter's running time with tenths
/// (`01:05.3`), and subtitle timestamps (`00:01:05,300` for SubRip, `.` for WebVTT).
package enum Clock {
    /// Which shape of clock text.
    package enum Style: Sendable, Equatable {
        /// `m:ss`, or `h:mm:ss` past an hour; rounded to the nearest second.
        case elapsed
        /// `mm:ss.t`, or `h:mm:ss.t` from an hour on; tenths cut, never rounded up (a
        /// meter must not show a tenth that has not been captured yet).
        case tenths
        /// `HH:MM:SS` + separator + `mmm`, hours always shown; rounded to the millisecond.
        case subtitle(separator: Character)
        /// `mm:ss`, or `h:mm:ss` from an hour on; whole seconds cut: a place in a recording
        /// (`@12:03` in search hits, `[00:05]` before a transcript's lines).
        case position
    }

    /// The most a clock shows: about 31 years, far past any recording, and small enough that
    /// milliseconds fit an `Int`.
    static let longest = 1_000_000_000.0

    /// `seconds` (negative or not a number counts as 0, more than `longest` as `longest`) as
    /// clock text in `style`: any number a row holds can be shown.
    package static func text(_ seconds: Double, _ style: Style) -> String {
        let seconds = seconds.isNaN ? 0 : min(max(seconds, 0), longest)
        switch style {
        case .elapsed:
            let total = Int(seconds.rounded())
            let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
            return hours > 0 ? "\(hours):\(pad(minutes)):\(pad(secs))" : "\(minutes):\(pad(secs))"
        case .tenths:
            let tenths = Int((seconds * 10).rounded(.down))
            let body = "\(pad(tenths / 600 % 60)):\(pad(tenths / 10 % 60)).\(tenths % 10)"
            return tenths >= 36000 ? "\(tenths / 36000):\(body)" : body
        case .position:
            let total = Int(seconds)
            let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
            return hours > 0 ? "\(hours):\(pad(minutes)):\(pad(secs))" : "\(pad(minutes)):\(pad(secs))"
        case .subtitle(let separator):
            let ms = Int((seconds * 1000).rounded())
            let millis = ms % 1000
            let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
            return "\(pad(ms / 3_600_000)):\(pad(ms / 60_000 % 60)):\(pad(ms / 1000 % 60))\(separator)\(fraction)"
        }
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// A clock with the fraction of a second when there is one ("00:05.81", "00:05"): two times a
    /// whole-second clock would show alike ("--at 00:05 is past the end (00:05 long)") stay apart.
    package static func precise(_ seconds: Double) -> String {
        let whole = text(seconds, .position)
        let millis = Int((seconds.isFinite ? (seconds - seconds.rounded(.down)) * 1000 : 0).rounded())
        guard millis > 0, millis < 1000 else { return whole }
        var fraction = String(millis)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
