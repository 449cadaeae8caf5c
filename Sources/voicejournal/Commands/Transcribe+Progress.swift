import Foundation
import Pipeline
import Synchronization
import Terminal
import Transcription

/// Shows a run's progress on stderr: on a terminal one bar redrawn in place (with failures
/// printed above it), otherwise one plain line per file.
final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: BatchProgress
        var ticking = false
    }

    private let state: Mutex<State>
    private let started = ProcessInfo.processInfo.systemUptime
    private let terminal: StderrTerminal
    /// Only jobs of the batch move the bar (a live recording taken meanwhile does not).
    private let scope: Set<Int64>?

    init(total: Int, scope: Set<Int64>?, terminal: StderrTerminal = .detect()) {
        state = Mutex(State(progress: BatchProgress(total: total)))
        self.terminal = terminal
        self.scope = scope
    }

    /// Starts redrawing (on a terminal, twice a second, so pace and ETA stay current).
    func start() {
        guard terminal.isTTY else { return }
        state.withLock { $0.ticking = true }
        let thread = Thread { [self] in
            while state.withLock({ $0.ticking }) {
                redraw()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        thread.start()
    }

    /// Stops redrawing and leaves the final bar on its own line.
    func finish() {
        let wasTicking = state.withLock { state -> Bool in
            defer { state.ticking = false }
            return state.ticking
        }
        if wasTicking {
            redraw()
            write("\n")
        }
    }

    func handle(_ event: QueueRunner.Event) {
        switch event {
        case .started:
            return
        case let .transcribed(jobId, path, seconds):
            let counted = count(jobId) { $0.done += 1 }
            if !terminal.isTTY {
                write("\(counted.map { "[\($0.finished)/\($0.total)] " } ?? "")done \(path) (\(String(format: "%.1f", seconds)) s)\n")
            }
        case let .failed(jobId, path, message):
            let counted = count(jobId) { $0.failed += 1 }
            announce("\(counted.map { "[\($0.finished)/\($0.total)] " } ?? "")failed \(path): \(message)")
        case let .willRetry(_, path, error, after):
            announce("retrying \(path) in \(String(format: "%.1f", after)) s: \(error.description)")
        case let .endpointUnreachable(message, retryingFor):
            announce("\(message); pausing all uploads and trying again for up to \(max(1, Int(retryingFor.rounded()))) s")
        case .endpointBack:
            announce("the server answers again; resuming uploads")
        }
        redraw()
    }

    private func count(_ jobId: Int64, _ change: (inout BatchProgress) -> Void) -> BatchProgress? {
        guard scope?.contains(jobId) ?? true else { return nil }
        return state.withLock { state in
            change(&state.progress)
            return state.progress
        }
    }

    /// A line above the bar (or simply a line, off a terminal).
    private func announce(_ line: String) {
        write(terminal.isTTY ? "\r\u{1B}[2K\(line)\n" : "\(line)\n")
    }

    private func redraw() {
        guard terminal.isTTY else { return }
        let progress = state.withLock { state -> BatchProgress in
            state.progress.elapsed = ProcessInfo.processInfo.systemUptime - started
            return state.progress
        }
        write("\r\u{1B}[2K" + ProgressBar.line(progress, width: terminal.width - 1, color: terminal.color))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Whether stderr is a terminal, how wide, and whether colours are allowed.
/// (The Terminal module's own detection can replace this once both land on main.)
struct StderrTerminal: Sendable {
    var isTTY: Bool
    var color: Bool
    var width: Int

    static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> StderrTerminal {
        let tty = isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        var size = winsize()
        let columns = tty && ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
            ? Int(size.ws_col) : (environment["COLUMNS"].flatMap(Int.init) ?? 80)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return StderrTerminal(isTTY: tty, color: tty && !noColor, width: columns)
    }
}
