import Foundation

/// What the output stream is: a terminal (redraw in place, maybe colour) or a pipe/file
/// (plain lines), and how wide it is.
public struct TerminalInfo: Sendable, Equatable {
    public var isTTY: Bool
    /// Colours on: only on a TTY, never with `NO_COLOR` set, never on a `dumb` terminal.
    public var color: Bool
    /// Columns to fit into.
    public var width: Int

    public init(isTTY: Bool, color: Bool, width: Int) {
        self.isTTY = isTTY
        self.color = color
        self.width = width
    }

    /// Looks at a file descriptor (stderr for meters) and the environment; `TERM=dumb`
    /// counts as no terminal.
    public static func detect(fileDescriptor: Int32 = STDERR_FILENO,
                              environment: [String: String] = TerminalInfo.environment()) -> TerminalInfo {
        let tty = isatty(fileDescriptor) == 1
        var size = winsize()
        let columns = tty && ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : nil
        // A `dumb` terminal cannot redraw a line in place: it gets plain lines, like a pipe.
        let redraws = tty && environment["TERM"] != "dumb"
        return TerminalInfo(isTTY: redraws, color: colorEnabled(isTTY: redraws, environment: environment),
                            width: width(reported: columns, environment: environment))
    }

    /// The variables detection reads (TERM, NO_COLOR, COLUMNS), from the process's environment.
    /// Only these, with getenv: ProcessInfo's `environment` copies all of it into a dictionary,
    /// which cost more than the rest of detecting the terminal.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in ["TERM", "NO_COLOR", "COLUMNS"] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    /// Colour rule (https://no-color.org): a TTY, `NO_COLOR` absent or empty, `TERM` not `dumb`.
    public static func colorEnabled(isTTY: Bool, environment: [String: String]) -> Bool {
        guard isTTY else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// The terminal's own width if it reported one, else `$COLUMNS`, else 80.
    public static func width(reported: Int?, environment: [String: String]) -> Int {
        if let reported, reported > 0 { return reported }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}

/// ANSI escape sequences, used only when `TerminalInfo.color` is on.
public enum ANSI {
    public static let reset = "\u{1B}[0m"
    public static let green = "\u{1B}[32m"
    public static let yellow = "\u{1B}[33m"
    public static let red = "\u{1B}[31m"
    public static let bold = "\u{1B}[1m"
    public static let dim = "\u{1B}[2m"
    public static let cyan = "\u{1B}[36m"
    /// Back to the start of the line and clear it, for a line redrawn in place.
    public static let redrawLine = "\r\u{1B}[2K"

    /// `text` in `code` (and back to normal after it) when `on`, else `text` as it is; nothing
    /// wraps an empty text.
    public static func paint(_ text: String, _ code: String, _ on: Bool) -> String {
        on && !text.isEmpty ? code + text + reset : text
    }

    /// `text` without escape sequences: what the terminal shows.
    public static func stripped(_ text: String) -> String {
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
