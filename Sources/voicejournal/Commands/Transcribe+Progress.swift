import Foundation
import Intake
import Queue
import Synchronization
import Terminal

/// Writes a run's progress (`RunProgress`) on stderr: on a terminal one bar redrawn in place,
/// twice a second so pace and ETA stay current, otherwise one plain line per file.
final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: RunProgress?
        var scope: BatchScope?
        var ticking = false
        var started = ProcessInfo.processInfo.systemUptime
    }

    private let state = Mutex(State())
    private let terminal = TerminalInfo.detect(fileDescriptor: STDERR_FILENO)

    /// Starts showing a run of `total` files; only jobs in `scope` (nil: any) move the bar.
    func begin(total: Int, endpoints: Int, scope: BatchScope?) {
        state.withLock { $0 = State(progress: RunProgress(total: total, endpoints: endpoints, tty: terminal.isTTY), scope: scope,
                                    ticking: terminal.isTTY) }
        guard terminal.isTTY else { return }
        Thread { [self] in
            while state.withLock({ $0.ticking }) {
                redraw()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }.start()
    }

    func handle(_ event: BatchEvent) {
        switch event {
        case let .runStarting(total, endpoints, scope): begin(total: total, endpoints: endpoints, scope: scope)
        case .notWork(let count): state.withLock { $0.progress?.reduceTotal(by: count) }; redraw()
        case .run(let event): handle(event)
        case .runEnded: finish()
        default: break
        }
    }

    func handle(_ event: QueueRunner.Event) {
        if let text = state.withLock({ $0.progress?.text(for: event, scope: $0.scope) }) { write(text) }
        redraw()
    }

    /// Stops redrawing and leaves the final bar on its own line.
    func finish() {
        guard state.withLock({ state in defer { state.ticking = false }; return state.ticking }) else { return }
        redraw()
        write("\n")
    }

    private func redraw() {
        let now = ProcessInfo.processInfo.systemUptime
        if let bar = state.withLock({ $0.progress?.bar(elapsed: now - $0.started, width: terminal.width - 1, color: terminal.color) }) {
            write(bar)
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
