import Foundation

/// A pseudo-terminal for tests: `child` is a terminal like the one a shell gives a command
/// (line editing and echo on), `parent` the side that types into it.
final class PseudoTerminal {
    let parent: Int32
    let child: Int32

    init() throws {
        var ends: (parent: Int32, child: Int32) = (-1, -1)
        guard openpty(&ends.parent, &ends.child, nil, nil, nil) == 0 else { throw POSIXError(.ENODEV) }
        (parent, child) = ends
    }

    deinit {
        close(child)
        close(parent)
    }

    /// Types `text` as keys.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(parent, $0.baseAddress, $0.count) }
    }

    /// The byte the child's line discipline treats as `index` (VINTR, VSUSP…); 0 when none.
    func controlCharacter(_ index: Int32) -> UInt8 {
        var mode = termios()
        tcgetattr(child, &mode)
        return withUnsafeBytes(of: &mode.c_cc) { $0[Int(index)] }
    }

    /// Makes the terminal `columns` wide.
    func resize(columns: Int) {
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(child, UInt(TIOCSWINSZ), &size)
    }

    /// The child's local mode flags.
    var localFlags: tcflag_t {
        get {
            var mode = termios()
            tcgetattr(child, &mode)
            return mode.c_lflag
        }
        set {
            var mode = termios()
            tcgetattr(child, &mode)
            mode.c_lflag = newValue
            tcsetattr(child, TCSANOW, &mode)
        }
    }
}
