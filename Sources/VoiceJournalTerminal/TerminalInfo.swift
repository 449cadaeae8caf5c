import Foundation

/// What the output stream is: a terminal (redraw in place, maybe colour) or a pipe/file
/// (plain lines), and how wide it is.
package struct TerminalInfo: Sendable, Equatable {
    package var isTTY: Bool
    /// Colours on: only on a TTY, never with `NO_COLOR` set, never on a `dumb` terminal.
    package var color: Bool
    /// Columns to fit into.
    package var width: Int

    package init(isTTY: Bool, color: Bool, width: Int) {
        self.isTTY = isTTY
        self.color = color
        self.width = width
    }

    /// Looks at a file descriptor (stderr for meters) and the process's environment; `TERM=dumb`
    /// counts as no terminal. The three variables it reads are read with getenv: ProcessInfo's
    /// `environment` copies all of it into a dictionary, which cost more than the rest of detecting.
    package static func detect(fileDescriptor: Int32 = STDERR_FILENO) -> TerminalInfo {
        detect(fileDescriptor: fileDescriptor) { name in getenv(name).map { String(cString: $0) } }
    }

    /// `detect` for standard output, where a command prints its page (a chart fits its width).
    package static func detectStandardOutput() -> TerminalInfo { detect(fileDescriptor: STDOUT_FILENO) }

    /// `detect` with `environment` in place of the process's.
    package static func detect(fileDescriptor: Int32, environment: [String: String]) -> TerminalInfo {
        detect(fileDescriptor: fileDescriptor) { environment[$0] }
    }

    private static func detect(fileDescriptor: Int32, variable: (String) -> String?) -> TerminalInfo {
        let tty = isatty(fileDescriptor) == 1
        var size = winsize()
        let columns = tty && ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : nil
        // A `dumb` terminal cannot redraw a line in place: it gets plain lines, like a pipe.
        let redraws = tty && variable("TERM") != "dumb"
        return TerminalInfo(isTTY: redraws, color: colorEnabled(isTTY: redraws, variable: variable),
                            width: width(reported: columns, variable: variable))
    }

    /// Colour rule (https://no-color.org): a TTY, `NO_COLOR` absent or empty, `TERM` not `dumb`.
    package static func colorEnabled(isTTY: Bool, environment: [String: String]) -> Bool {
        colorEnabled(isTTY: isTTY) { environment[$0] }
    }

    private static func colorEnabled(isTTY: Bool, variable: (String) -> String?) -> Bool {
        guard isTTY else { return false }
        if let noColor = variable("NO_COLOR"), !noColor.isEmpty { return false }
        return variable("TERM") != "dumb"
    }

    /// The terminal's own width if it reported one, else `$COLUMNS`, else 80.
    package static func width(reported: Int?, environment: [String: String]) -> Int {
        width(reported: reported) { environment[$0] }
    }

    private static func width(reported: Int?, variable: (String) -> String?) -> Int {
        if let reported, reported > 0 { return reported }
        if let columns = variable("COLUMNS").flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}

/// ANSI escape sequences, used only when `TerminalInfo.color` is on.
package enum ANSI {
    package static let reset = "\u{1B}[0m"
    package static let green = "\u{1B}[32m"
    package static let yellow = "\u{1B}[33m"
    package static let red = "\u{1B}[31m"
    package static let bold = "\u{1B}[1m"
    package static let dim = "\u{1B}[2m"
    package static let cyan = "\u{1B}[36m"
    /// Back to the start of the line and clear it, for a line redrawn in place.
    package static let redrawLine = "\r\u{1B}[2K"

    /// `text` in `code` (and back to normal after it) when `on`, else `text` as it is; nothing
    /// wraps an empty text.
    package static func paint(_ text: String, _ code: String, _ on: Bool) -> String {
        on && !text.isEmpty ? code + text + reset : text
    }

    /// `text` without escape sequences: what the terminal shows.
    package static func stripped(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
