import Foundation
import Synchronization
import VoiceJournalSystem

/// A terminal's input in raw mode while the player reads keys: no line editing (a key
/// arrives as it is pressed) and no echo (keys do not scribble over the status line).
/// Ctrl-C still sends SIGINT; Ctrl-Z is only a byte. One instance owns the saved mode: `restore()` puts it back, as
/// does `deinit`, and a process-wide `atexit` hook does it for anyone still raw when the
/// process exits, so the shell is never left without echo.
final class RawTerminal: Sendable {
    private let id: Int
    private let input: Int32

    /// Puts `input` in raw mode; nil (nothing changed) when it is not a terminal, or is one
    /// this process runs in the background of (`play … &`: changing its mode or reading it
    /// would stop the process with SIGTTOU or SIGTTIN).
    /// `whenRestored` is called once, right after the mode is put back (the player shows the
    /// cursor it hid), on whichever path restores it.
    init?(input: Int32, whenRestored: @escaping @Sendable () -> Void = {}) {
        self.input = input
        var saved = termios()
        guard isatty(input) == 1, tcgetattr(input, &saved) == 0 else { return nil }
        let foreground = tcgetpgrp(input)
        guard foreground < 0 || foreground == getpgrp() else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // One byte is enough for a read to return; no timer. Ctrl-Z does not suspend: a
        // stopped player would leave the shell a terminal without echo until `fg`, and come
        // back to one with line editing on.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
            cc[Int(VSUSP)] = 0
        }
        // Registered before the mode changes: an exit in between still restores it.
        id = RawModes.shared.add(RawModes.Saved(input: input, mode: saved, whenRestored: whenRestored))
        guard tcsetattr(input, TCSANOW, &raw) == 0 else {
            RawModes.shared.remove(id)
            return nil
        }
    }

    /// The terminal's width now (it may have been resized since playback started); nil when
    /// it does not say.
    func columns() -> Int? {
        var size = winsize()
        guard ioctl(input, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Puts the saved mode back (once; later calls do nothing). Safe from any thread.
    func restore() {
        RawModes.shared.restore(id)
    }

    deinit { restore() }

    /// Whether `input`'s mode has line editing and echo on (what a shell expects).
    static func isCooked(_ input: Int32) -> Bool {
        var mode = termios()
        guard tcgetattr(input, &mode) == 0 else { return false }
        return mode.c_lflag & tcflag_t(ICANON) != 0 && mode.c_lflag & tcflag_t(ECHO) != 0
    }
}

/// The modes saved by every raw terminal still raw, for `restore()` and the exit hook.
private final class RawModes: Sendable {
    static let shared = RawModes()

    struct Saved: @unchecked Sendable {
        // `termios` is plain data (integers and a byte array); it is only copied.
        var input: Int32
        var mode: termios
        var whenRestored: @Sendable () -> Void
    }

    private struct State {
        var next = 0
        var saved: [Int: Saved] = [:]
    }
    private let state = Mutex(State())

    private init() {
        // Once per process: whatever way the process exits normally (`exit()` on an error
        // path included), the terminal gets its mode back.
        atexit { RawModes.shared.restoreAllAtExit() }
    }

    func add(_ saved: Saved) -> Int {
        state.withLock { state in
            state.next += 1
            state.saved[state.next] = saved
            return state.next
        }
    }

    func remove(_ id: Int) {
        state.withLock { _ = $0.saved.removeValue(forKey: id) }
    }

    func restore(_ id: Int) {
        guard let saved = state.withLock({ $0.saved.removeValue(forKey: id) }) else { return }
        Self.apply(saved)
    }

    private func restoreAllAtExit() {
        // Never wait at exit: a thread that died holding the lock must not hang the process.
        let all: [Saved]? = state.withLockIfAvailable { state in
            defer { state.saved.removeAll() }
            return Array(state.saved.values)
        }
        for saved in all ?? [] { Self.apply(saved) }
    }

    private static func apply(_ saved: Saved) {
        var mode = saved.mode
        _ = retryingOnInterrupt { tcsetattr(saved.input, TCSANOW, &mode) }
        saved.whenRestored()
    }
}
