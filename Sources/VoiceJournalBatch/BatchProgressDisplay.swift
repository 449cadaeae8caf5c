import Foundation
import VoiceJournalQueue
import Synchronization
import VoiceJournalTerminal
import VoiceJournalSystem

/// Writes what a batch or a queue run reports on stderr: the files passed over, notices, and
/// the progress (`RunProgress`): on a terminal one bar redrawn in place, twice a second so
/// pace and ETA stay current, otherwise one plain line per file.
package final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: RunProgress?
        /// Only jobs of the batch move the bar (a live recording taken meanwhile does not).
        var scope: BatchScope?
        var ticking = false
        var started = ProcessInfo.processInfo.systemUptime
    }

    private let state = Mutex(State())
    private let writing = Mutex(())
    private let terminal = TerminalInfo.detect(fileDescriptor: STDERR_FILENO)
    /// Writes one notice line on stderr (the program's prefix, escaped).
    private let printNotice: @Sendable (String) -> Void

    package init(notice: @escaping @Sendable (String) -> Void) {
        printNotice = notice
    }

    package func handle(_ event: BatchEvent) {
        switch event {
        case let .runStarting(total, endpoints, scope):
            let tty = terminal.isTTY
            state.withLock { $0 = State(progress: RunProgress(total: total, endpoints: endpoints, tty: tty), scope: scope, ticking: tty) }
            guard tty else { return }
            DedicatedThread.start(name: "voicejournal progress") { [self] in
                while state.withLock({ $0.ticking }) {
                    redraw()
                    Thread.sleep(forTimeInterval: 0.5)
                }
            }
            return
        case .notWork(let count):
            state.withLock { $0.progress?.reduceTotal(by: count) }
        case .run(let event):
            if let text = state.withLock({ $0.progress?.text(for: event, scope: $0.scope) }) { write(text) }
        case .runEnded: // stops redrawing and leaves the final bar on its own line
            guard state.withLock({ state in defer { state.ticking = false }; return state.ticking }) else { return }
            redraw()
            write("\n")
            return
        case .skipped(let file):
            let line = RunText.skipped(path: file.url.path, reason: file.reason)
            aboveTheBar { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        case .replaced(let file):
            aboveTheBar { printNotice(RunText.replaced(path: file.url.path, recordingId: file.outcome.recordingId)) }
        case .notice(let line):
            aboveTheBar { printNotice(line) }
        }
        redraw()
    }

    /// Writes whole lines while the bar may be on screen: the bar's line is cleared first (the
    /// lines would otherwise run on from its end) and drawn again by the caller after.
    private func aboveTheBar(_ lines: () -> Void) {
        let ticking = state.withLock { $0.ticking }
        writing.withLock { _ in
            if ticking { FileHandle.standardError.write(Data(ANSI.redrawLine.utf8)) }
            lines()
        }
    }

    private func redraw() {
        let now = ProcessInfo.processInfo.systemUptime
        if let bar = state.withLock({ $0.progress?.bar(elapsed: now - $0.started, width: terminal.width - 1, color: terminal.color) }) {
            write(bar)
        }
    }

    /// One write at a time: the ticker's redraw never lands between a cleared bar and its line.
    private func write(_ text: String) {
        writing.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }
}

extension BatchProgressDisplay {
    /// `queue run`: drains the queue with its progress shown here, the bar ended however the
    /// drain ends (see `QueueRunner.drainQueue`).
    package func drain(_ runner: QueueRunner) async throws -> QueueRunner.Drained {
        defer { handle(.runEnded) }
        return try await runner.drainQueue(starting: { handle(.runStarting(total: $0, endpoints: runner.endpoints.count, scope: nil)) },
                                           onEvent: { [self] in handle(.run($0)) })
    }
}
