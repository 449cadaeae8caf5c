import Foundation
import Queue
import Store
import Synchronization
import Terminal
import Transcription

/// `record --live`: a queue runner inside the recording process that transcribes the take's
/// pieces as they are queued, and what the user sees of it (each piece's text as it comes
/// back, a one-line notice when an endpoint goes out or answers again).
final class LiveTranscription: Sendable {
    let runner: QueueRunner
    let store: JournalStore
    /// Holds the recording's job alone; adding to it wakes the runner's idle workers, so it
    /// is rung each time a piece is queued.
    private let scope = BatchScope()
    private let state = Mutex(State())

    private struct State {
        var jobId: Int64?
        var task: Task<QueueRunner.Summary, any Error>?
        /// Pieces whose text was shown (a prefix, in order).
        var shown = 0
        var changed = false
        /// The endpoints out now (not answering, or left out of the run); the pieces wait
        /// when every one is.
        var down: Set<String> = []
        var notices: [String] = []
    }

    init(runner: QueueRunner, store: JournalStore) {
        self.runner = runner
        self.store = store
    }

    /// Starts the uploader for the recording's job (its pieces are its chunks).
    func start(jobId: Int64) {
        scope.add([jobId])
        scope.close()
        let task = Task { [runner, scope] in
            try await runner.run(until: .finishBatch(scope)) { [weak self] event in self?.handle(event) }
        }
        state.withLock { state in
            state.jobId = jobId
            state.task = task
        }
    }

    /// A piece was queued: idle workers look at once.
    func pieceQueued(_ jobId: Int64) { scope.add([jobId]) }

    private func handle(_ event: QueueRunner.Event) {
        state.withLock { state in
            switch event {
            case .chunksDone, .transcribed:
                state.changed = true
            case .endpointDown(let endpoint, let message, _):
                state.down.insert(endpoint)
                state.notices.append(runner.endpoints.count == 1
                    ? "the server cannot be reached or does not answer (\(message)); the pieces stay queued"
                    : "\(endpoint) is out (\(message)); the other endpoints take the pieces")
            case .endpointBack(let endpoint):
                state.down.remove(endpoint)
                state.notices.append(runner.endpoints.count == 1
                    ? "the server answers again; transcribing the queued pieces"
                    : "\(endpoint) answers again")
            case .endpointDropped(let endpoint, let message):
                state.down.insert(endpoint)
                state.notices.append("\(endpoint) is left out of this recording: \(message)")
            default:
                break
            }
        }
    }

    /// The recording's job, once started.
    var jobId: Int64? { state.withLock { $0.jobId } }

    /// Whether every endpoint is out (not answering, or left out of the run).
    var serverUnreachable: Bool { state.withLock { $0.down.count >= runner.endpoints.count } }

    /// New lines to show: notices, and (with `texts`) the text of pieces transcribed since
    /// the last call (in order: a piece waits for the ones before it).
    func newLines(texts showTexts: Bool = true) -> [String] {
        let (jobId, changed, notices) = state.withLock { state in
            defer {
                state.changed = false
                state.notices.removeAll()
            }
            return (state.jobId, state.changed, state.notices)
        }
        var lines = notices.map { "voicejournal: " + $0 }
        guard showTexts, changed, let jobId, let texts = try? store.queue.pieceTexts(jobId: jobId) else { return lines }
        state.withLock { state in
            while let text = texts[state.shown] {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { lines.append(TerminalText.escaped(trimmed)) }
                state.shown += 1
            }
        }
        return lines
    }

    /// Wakes the uploader's idle workers (the plan was closed, maybe assembled already).
    func nudge() { scope.add([]) }

    /// Waits for the uploader to end: nil when it finished, else its error. `giveUp` is asked
    /// every 50 ms while waiting, and `show` given new lines; when it says so the uploader is
    /// stopped (its jobs stay queued).
    func wait(texts: Bool, giveUp: () -> Bool, show: ([String]) -> Void) async -> (any Error)? {
        guard let task = state.withLock({ $0.task }) else { return nil }
        let finished = Mutex(false)
        let watcher = Task {
            _ = try? await task.value
            finished.withLock { $0 = true }
        }
        while !finished.withLock({ $0 }) {
            show(newLines(texts: texts))
            if giveUp() {
                runner.stop()
                break
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        _ = await watcher.value
        show(newLines(texts: texts))
        do {
            _ = try await task.value
            return nil
        } catch {
            return error
        }
    }

    /// Stops the uploader (Ctrl-C, a failed take) and waits for it; its jobs stay queued.
    func stop() async {
        runner.stop()
        _ = try? await state.withLock({ $0.task })?.value
    }
}
