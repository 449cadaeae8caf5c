import Foundation
import Queue
import Synchronization
import Terminal
import Transcription

/// Shows a run's progress on stderr: on a terminal one bar redrawn in place (with failures
/// printed above it), otherwise one plain line per file.
final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: BatchProgress
        var ticking = false
        /// Split files in progress: chunks transcribed and in all, by job.
        var chunks: [Int64: (done: Int, total: Int)] = [:]

        mutating func setChunks(of jobId: Int64, to tally: (done: Int, total: Int)?) {
            chunks[jobId] = tally
            progress.chunksDone = chunks.values.reduce(0) { $0 + $1.done }
            progress.chunksTotal = chunks.values.reduce(0) { $0 + $1.total }
            progress.partialFiles = chunks.values.reduce(0) { $0 + Double($1.done) / Double(max($1.total, 1)) }
        }
    }

    private let state: Mutex<State>
    private let started = ProcessInfo.processInfo.systemUptime
    private let terminal: TerminalInfo
    /// Only jobs of the batch move the bar (a live recording taken meanwhile does not).
    private let scope: BatchScope?

    /// Whether the run has several endpoints (messages then name the one they are about).
    private let pooled: Bool

    init(total: Int, scope: BatchScope?, endpoints: Int = 1, terminal: TerminalInfo = .detect(fileDescriptor: STDERR_FILENO)) {
        state = Mutex(State(progress: BatchProgress(total: total)))
        pooled = endpoints > 1
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
        case let .chunksDone(jobId, path, done, total):
            guard count(jobId, { $0.setChunks(of: jobId, to: (done, total)) }) != nil else { return }
            if !terminal.isTTY {
                write(done == 0 ? "split \(TerminalText.escaped(path)) into \(total) chunks\n"
                                : "chunk \(done)/\(total) of \(TerminalText.escaped(path)) done\n")
            }
        case let .transcribed(jobId, path, seconds):
            let counted = count(jobId) { $0.progress.done += 1; $0.setChunks(of: jobId, to: nil) }
            if !terminal.isTTY {
                write("\(counted.map { "[\($0.finished)/\($0.total)] " } ?? "")done \(TerminalText.escaped(path)) (\(ProgressBar.oneDecimal(seconds)) s)\n")
            }
        case let .failed(jobId, path, message):
            let counted = count(jobId) { $0.progress.failed += 1; $0.setChunks(of: jobId, to: nil) }
            announce("\(counted.map { "[\($0.finished)/\($0.total)] " } ?? "")failed \(path): \(message)")
        case let .suspect(_, path, message):
            announce("warning: \(path): \(message)")
        case let .willRetry(_, path, error, after):
            announce("retrying \(path) in \(ProgressBar.oneDecimal(after)) s: \(error.description)")
        case let .endpointDown(endpoint, message, retryingFor):
            let retrying = retryingFor.map { "trying again for up to \(max(1, Int($0.rounded()))) s" } ?? "trying again after a cool-down"
            announce(pooled
                ? "warning: endpoint \(endpoint) is out: \(message); its uploads go to the other endpoints, \(retrying)"
                : "\(message); pausing all uploads and \(retrying)")
        case let .endpointBack(endpoint):
            announce(pooled ? "endpoint \(endpoint) answers again; it takes uploads again" : "the server answers again; resuming uploads")
        case let .endpointDropped(endpoint, message):
            announce("warning: endpoint \(endpoint) is left out of this run: \(message); the other endpoints go on")
        }
        redraw()
    }

    /// Files that turned out not to be work for this run (transcribed before, unreadable).
    func reduceTotal(by count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.progress.total = max(0, $0.progress.total - count) }
        redraw()
    }

    private func count(_ jobId: Int64, _ change: (inout State) -> Void) -> BatchProgress? {
        guard scope?.contains(jobId) ?? true else { return nil }
        return state.withLock { state in
            change(&state)
            return state.progress
        }
    }

    /// A line above the bar (or simply a line, off a terminal). It quotes paths and
    /// servers' words, so it is escaped whole: one line, nothing the terminal obeys.
    private func announce(_ line: String) {
        let safe = TerminalText.escaped(line)
        write(terminal.isTTY ? ANSI.redrawLine + safe + "\n" : safe + "\n")
    }

    private func redraw() {
        guard terminal.isTTY else { return }
        let progress = state.withLock { state -> BatchProgress in
            state.progress.elapsed = ProcessInfo.processInfo.systemUptime - started
            return state.progress
        }
        write(ANSI.redrawLine + ProgressBar.line(progress, width: terminal.width - 1, color: terminal.color))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
