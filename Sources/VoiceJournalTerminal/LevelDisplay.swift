/// The live level meter as text for stderr: on a terminal one line redrawn in place, with the
/// lines given (a live transcript) wrapped under it; elsewhere those lines as they are and one
/// plain line per second of audio. Pure: the caller writes what `render` returns.
package struct LevelDisplay: Sendable {
    /// One second of audio, for the plain line.
    package struct Second: Sendable, Equatable {
        package var second: Int
        package var peakDBFS: Double
        package var rmsDBFS: Double
        package var clipped: Bool

        package init(second: Int, peakDBFS: Double, rmsDBFS: Double, clipped: Bool) {
            self.second = second
            self.peakDBFS = peakDBFS
            self.rmsDBFS = rmsDBFS
            self.clipped = clipped
        }
    }

    /// One redraw: the level now, the seconds of audio completed since the last frame, the
    /// lines (escaped) that came meanwhile, and whether the capture has ended.
    package struct Frame: Sendable, Equatable {
        package var level: MeterLine.State
        package var seconds: [Second]
        package var lines: [String]
        package var finished: Bool

        package init(level: MeterLine.State, seconds: [Second] = [], lines: [String] = [], finished: Bool = false) {
            self.level = level
            self.seconds = seconds
            self.lines = lines
            self.finished = finished
        }
    }

    /// Whether the meter is shown at all (lines under it are shown either way).
    package let showing: Bool
    package let terminal: TerminalInfo
    private var area = TranscriptArea()

    package init(showing: Bool, terminal: TerminalInfo) {
        self.showing = showing
        self.terminal = terminal
    }

    /// The line said before the meter starts: what is measured and how to stop it.
    package func start(hint: String) -> String {
        showing && terminal.isTTY ? "\(TerminalText.escaped(hint)) — press Enter to stop\n" : ""
    }

    /// The text that shows `frame`.
    package mutating func render(_ frame: Frame) -> String {
        var text = ""
        if showing, terminal.isTTY {
            let line = MeterLine.render(frame.level, width: terminal.width - 1, color: terminal.color)
            let wrapped = frame.lines.flatMap { TranscriptArea.wrap($0, width: terminal.width - 1) }
            text += area.append(wrapped) + ANSI.redrawLine + line + (frame.finished ? area.leave() : "")
        } else {
            text += Self.plain(frame.lines)
        }
        if showing, !terminal.isTTY {
            text += frame.seconds.map {
                MeterLine.plain(seconds: Double($0.second), peakDBFS: $0.peakDBFS, rmsDBFS: $0.rmsDBFS, clipped: $0.clipped) + "\n"
            }.joined()
        }
        return text
    }

    /// Lines one after another, each ended.
    package static func plain(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
}
