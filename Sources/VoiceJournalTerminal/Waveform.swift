import Foundation

/// A waveform drawn with text: one column per slice of time, mirrored around a centre line,
/// the RMS envelope solid and the peak envelope shaded, over a time axis. Heights are on a
/// decibel scale, so speech, quiet talk and pauses differ (on a linear scale speech that
/// peaks near full scale fills every row).
package enum Waveform {
    /// One slice of time as linear amplitudes, 0 (silence) to 1 (full scale).
    package struct Column: Sendable, Equatable {
        package var peak: Double
        package var rms: Double

        package init(peak: Double, rms: Double) {
            self.peak = peak
            self.rms = rms
        }
    }

    /// The glyph for the RMS envelope (the body of the sound).
    package static let rmsGlyph: Character = "█"
    /// The glyph for the part of the peak envelope beyond the RMS.
    package static let peakGlyph: Character = "░"
    /// The quietest level drawn: from here to 0 dBFS spans the rows from the centre out.
    /// Room noise and a pause's breath sit below it and leave the columns blank; a voice
    /// spoken softly (-30 dBFS) still lights the rows around the centre.
    package static let floorDBFS = -48.0

    /// How far from the centre `amplitude` reaches, 0 (at or below the floor) to 1 (full scale).
    package static func reach(_ amplitude: Double) -> Double {
        guard amplitude > 0, amplitude.isFinite else { return 0 }
        let dbfs = 20 * log10(min(amplitude, 1))
        return max(0, (dbfs - floorDBFS) / -floorDBFS)
    }

    /// `height` rows (rounded up to even, at least 2), one character per column. A row lights
    /// up when the level (`reach`) passes the row below it: anything above `floorDBFS` shows at
    /// least the two rows around the centre, and each row out from it is another
    /// `-floorDBFS / (height / 2)` dB.
    package static func render(_ columns: [Column], height: Int, color: Bool) -> [String] {
        let half = max((height + 1) / 2, 1)
        let reaches = columns.map { (peak: reach($0.peak), rms: reach($0.rms)) }
        var rows: [String] = []
        for row in 0..<(half * 2) {
            // Distance from the centre: half-1 … 0 above it, then 0 … half-1 below it.
            let level = row < half ? half - 1 - row : row - half
            var line = ""
            var open = ""
            for column in reaches {
                let glyph: Character
                let style: String
                if column.rms * Double(half) > Double(level) {
                    (glyph, style) = (rmsGlyph, ANSI.cyan)
                } else if column.peak * Double(half) > Double(level) {
                    (glyph, style) = (peakGlyph, ANSI.dim)
                } else {
                    (glyph, style) = (" ", ANSI.reset)
                }
                if color, style != open {
                    line += style
                    open = style
                }
                line.append(glyph)
            }
            if color { line += ANSI.reset }
            rows.append(line)
        }
        return rows
    }

    /// Two lines under the waveform: a rule with ticks at a round step, and the tick labels.
    package static func timeAxis(width: Int, durationSeconds: Double) -> [String] {
        guard width > 0 else { return ["", ""] }
        let step = tickStep(width: width, durationSeconds: durationSeconds)
        var rule = Array(repeating: Character("─"), count: width)
        var labels = Array(repeating: Character(" "), count: width)
        var freeFrom = 0
        var tick = 0.0
        while durationSeconds > 0, tick <= durationSeconds + step / 1000 {
            let column = min(Int((tick / durationSeconds * Double(width)).rounded(.down)), width - 1)
            rule[column] = "┬"
            let label = Array(timeLabel(tick, step: step))
            // Labels never overlap or run off the right edge; a crowded one is skipped.
            let start = min(column, width - label.count)
            if start >= freeFrom, start >= 0 {
                for (offset, character) in label.enumerated() { labels[start + offset] = character }
                freeFrom = start + label.count + 1
            }
            tick += step
        }
        return [String(rule), String(labels).trimmingTrailingSpaces()]
    }

    /// The smallest round step that leaves at least 10 columns between ticks.
    static func tickStep(width: Int, durationSeconds: Double) -> Double {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
        let maxTicks = max(width / 10, 1)
        return steps.first { durationSeconds / $0 <= Double(maxTicks) } ?? 3600 * (durationSeconds / 3600 / Double(maxTicks)).rounded(.up)
    }

    /// `0s`, `1.5s`, `45s`, `2:30`, `1:02:00`.
    static func timeLabel(_ seconds: Double, step: Double) -> String {
        if seconds < 60 || step < 1 {
            let tenths = Int((seconds * 10).rounded())
            return step < 1 && tenths % 10 != 0 ? "\(tenths / 10).\(tenths % 10)s" : "\(tenths / 10)s"
        }
        let whole = Int(seconds.rounded())
        let hours = whole / 3600, minutes = whole / 60 % 60, rest = whole % 60
        let restText = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(restText)" }
        return "\(minutes):\(restText)"
    }
}

extension String {
    /// The string without the spaces at its end (drawn lines stop where their last mark is).
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
