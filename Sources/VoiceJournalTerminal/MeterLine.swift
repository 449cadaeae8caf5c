/// The level meter as text: a one-line bar redrawn in place on a terminal, or one plain line
/// per second of audio elsewhere. Pure functions from levels to strings.
package enum MeterLine {
    /// The left end of the bar; quieter levels show an empty bar.
    package static let floorDBFS = -60.0
    /// Below this the bar is green: a comfortable speaking level.
    package static let yellowFromDBFS = -18.0
    /// Above this the bar is red: close to clipping.
    package static let redFromDBFS = -6.0

    /// Where a level sits.
    package enum Zone: Sendable, Equatable { case green, yellow, red }

    /// What one redraw shows.
    package struct State: Sendable, Equatable {
        package var seconds: Double
        package var peakDBFS: Double
        package var rmsDBFS: Double
        package var holdDBFS: Double
        package var clipped: Bool

        package init(seconds: Double, peakDBFS: Double, rmsDBFS: Double, holdDBFS: Double, clipped: Bool) {
            self.seconds = seconds
            self.peakDBFS = peakDBFS
            self.rmsDBFS = rmsDBFS
            self.holdDBFS = holdDBFS
            self.clipped = clipped
        }
    }

    /// The zone a level falls in.
    package static func zone(_ dbfs: Double) -> Zone {
        dbfs > redFromDBFS ? .red : dbfs >= yellowFromDBFS ? .yellow : .green
    }

    /// One line exactly `width` columns wide (at least a short bar): time, bar with peak-hold
    /// marker, the peak in dBFS, and CLIP when the input clipped recently.
    package static func render(_ state: State, width: Int, color: Bool) -> String {
        let time = clock(state.seconds)
        let number = " " + dbfs(state.peakDBFS) + " dBFS"
        let clip = state.clipped ? " CLIP" : "     "
        let barWidth = max(width - time.count - 3 - number.count - clip.count, 8)
        let filled = cells(state.peakDBFS, width: barWidth)
        let holdCell = state.holdDBFS > floorDBFS ? max(cells(state.holdDBFS, width: barWidth) - 1, 0) : nil

        var bar = ""
        var open: Zone?
        for cell in 0..<barWidth {
            let cellZone = zone(floorDBFS + (Double(cell) + 0.5) * (-floorDBFS) / Double(barWidth))
            let glyph: Character = cell < filled ? "█" : cell == holdCell ? "|" : "·"
            if color {
                let lit = cell < filled || cell == holdCell
                let wanted: Zone? = lit ? cellZone : nil
                if wanted != open || cell == 0 {
                    bar += wanted.map(escape) ?? ANSI.reset + ANSI.dim
                    open = wanted
                }
            }
            bar.append(glyph)
        }
        if color { bar += ANSI.reset }
        let clipText = color && state.clipped ? ANSI.bold + ANSI.red + clip + ANSI.reset : clip
        return time + " [" + bar + "]" + number + clipText
    }

    /// The plain line for one second of audio: `00:03.0 peak -12.4 dBFS rms -20.1 dBFS`.
    package static func plain(seconds: Double, peakDBFS: Double, rmsDBFS: Double, clipped: Bool = false) -> String {
        "\(clock(seconds)) peak \(dbfs(peakDBFS)) dBFS rms \(dbfs(rmsDBFS)) dBFS" + (clipped ? " CLIP" : "")
    }

    /// `mm:ss.t`, or `h:mm:ss.t` from an hour on.
    package static func clock(_ seconds: Double) -> String { Clock.text(seconds, .tenths) }

    /// A level with one decimal, e.g. `-12.4` (never `-0.0`).
    package static func dbfs(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    private static func cells(_ dbfs: Double, width: Int) -> Int {
        let fraction = (min(max(dbfs, floorDBFS), 0) - floorDBFS) / -floorDBFS
        return Int((fraction * Double(width)).rounded())
    }

    /// The colour of a zone, on the meter and wherever a level is shown.
    static func escape(_ zone: Zone) -> String {
        switch zone {
        case .green: ANSI.green
        case .yellow: ANSI.yellow
        case .red: ANSI.red
        }
    }

}
