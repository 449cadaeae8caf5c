import Foundation
import VoiceJournalStore
import Synchronization
import VoiceJournalTranscription
import VoiceJournalSystem

/// Transcribes inside the process that queues the work, rather than leaving it to `queue run`:
/// either one recording's job while it is being recorded (`record --live`: its pieces as they
/// are queued), or everything queued, as it comes, until cancelled (`serve --transcribe`: a
/// fresh runner each time answers wait). Driven by the runner's event stream and by nudges,
/// never by looking at shared state on a timer; its database reads run on a thread of their own.
/// What happens is told to `report` as typed values, for the command to print.
public final class InProcessTranscriber: Sendable {
    /// What happened, for the user.
    public enum Report: Sendable, Equatable {
        /// The text of the recording's next piece, trimmed (never empty).
        case pieceText(String)
        /// An endpoint is out; `onlyOne` when it is the run's only endpoint.
        case endpointDown(endpoint: String, message: String, onlyOne: Bool)
        case endpointBack(endpoint: String, onlyOne: Bool)
        case endpointDropped(endpoint: String, message: String)
        /// Transcription runs again after a pause for a refused key.
        case resumed
        /// A run over the queue ended having done something.
        case transcribed(count: Int, failed: Int)
        /// The server refused the key (or has no quota): nothing is tried for `seconds`.
        case paused(reason: String, seconds: Int)
        /// Something else stopped a run; the next look tries again.
        case pausedBriefly(reason: String)
        /// A recording's translation is not stored (`message` says why); its transcript is.
        case untranslated(path: String, message: String)

        /// Whether it is a result (stdout) rather than a notice (stderr, after the program's name).
        public var isResult: Bool {
            switch self {
            case .resumed, .transcribed: true
            default: false
            }
        }

        /// The line the user reads (not yet escaped for the terminal).
        public var text: String {
            switch self {
            case .pieceText(let text): text
            case .endpointDown(let endpoint, let message, let onlyOne): onlyOne
                ? "the server cannot be reached or does not answer (\(message)); the pieces stay queued"
                : "\(endpoint) is out (\(message)); the other endpoints take the pieces"
            case .endpointBack(let endpoint, let onlyOne): onlyOne
                ? "the server answers again; transcribing the queued pieces" : "\(endpoint) answers again"
            case .endpointDropped(let endpoint, let message): "\(endpoint) is left out of this recording: \(message)"
            case .resumed: "Transcription is running again."
            case .transcribed(let count, let failed): "Transcribed \(count) answer\(count == 1 ? "" : "s")"
                + (failed > 0 ? ", \(failed) failed (see: voicejournal queue list --state failed)" : "") + "."
            case .paused(let reason, let seconds):
                "transcription paused: \(reason); answers stay queued; trying again in \(seconds) s"
            case .pausedBriefly(let reason): "transcription paused: \(reason); trying again shortly"
            case .untranslated(let path, let message): "translation not stored for \(path): \(message) (the transcript is stored)"
            }
        }
    }

    /// How a recording's transcription ended.
    public enum Ending: Sendable {
        /// The recording's job is finished (done or failed: the store says which).
        case finished
        /// Every endpoint is out of reach; the jobs stay queued.
        case unreachable
        /// Stopped (Ctrl-C); the jobs stay queued.
        case stopped
        /// The run ended with this error (a refused key, a failed store).
        case failed(any Error)
    }

    private enum Work: Sendable {
        case queue(firstPause: Duration, makeRunner: @Sendable () throws -> QueueRunner)
        case recording(QueueRunner, BatchScope, texts: Bool)
    }

    private struct State {
        var task: Task<QueueRunner.Summary, any Error>?
        var jobId: Int64?
        /// The endpoints out now; the recording's pieces wait while every one is.
        var down: Set<String> = []
        /// Set once the recording ended: from then on every endpoint out ends the wait.
        var waiting = false
    }

    let queue: JobQueue
    private let work: Work
    private let report: @Sendable (Report) -> Void
    private let state = Mutex(State())
    private let nudges: AsyncStream<Void>
    private let doorbell: AsyncStream<Void>.Continuation
    /// How long the queue is left without a nudge before it is looked at anyway (answers
    /// queued by other commands).
    public static let poll: Duration = .seconds(2)
    /// The longest wait between tries of a server that refuses the key.
    public static let longestPause: Duration = .seconds(600)

    /// Everything queued, until cancelled: `run()`. `firstPause` is the first wait after the
    /// server refused the key; it doubles while refusals go on.
    public convenience init(queue: JobQueue, firstPause: Duration = .seconds(30), report: @escaping @Sendable (Report) -> Void,
                makeRunner: @escaping @Sendable () throws -> QueueRunner) {
        self.init(queue: queue, work: .queue(firstPause: firstPause, makeRunner: makeRunner), report: report)
    }

    /// One recording's job with `runner`, from `follow(jobId:)` to `finish()`; with `texts`
    /// each piece's text is reported as it comes back.
    public convenience init(recordingWith runner: QueueRunner, queue: JobQueue, texts: Bool,
                            report: @escaping @Sendable (Report) -> Void) {
        self.init(queue: queue, work: .recording(runner, BatchScope(), texts: texts), report: report)
    }

    private init(queue: JobQueue, work: Work, report: @escaping @Sendable (Report) -> Void) {
        self.queue = queue
        self.work = work
        self.report = report
        (nudges, doorbell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Something new is queued: look now.
    public func nudge() {
        switch work {
        case .queue: doorbell.yield()
        case .recording(_, let scope, _): scope.add([]) // wakes the runner's idle workers
        }
    }

    // MARK: Everything queued

    /// Transcribes until cancelled. A server that refuses the key (or has no quota) is left
    /// alone for a while, then tried again (keys get fixed and quotas refilled while a server
    /// runs for weeks), the wait doubling up to ten minutes; answers stay queued meanwhile.
    /// An unreachable server is tried again on the next look.
    public func run() async {
        guard case .queue(let firstPause, let makeRunner) = work else { return }
        var nudged = nudges.makeAsyncIterator()
        var refusedPause: Duration?
        while !Task.isCancelled {
            do {
                if try await onThread({ [queue] in try queue.unfinishedJobCount() }) > 0 {
                    let summary = try await transcribe(with: try makeRunner(), until: .drainQueue)
                    if refusedPause != nil { report(.resumed) }
                    refusedPause = nil
                    if summary.transcribed > 0 || summary.failed > 0 { report(.transcribed(count: summary.transcribed, failed: summary.failed)) }
                }
            } catch is CancellationError {
                return
            } catch let error as TranscriptionError where error.disposition == .stopRun {
                let pause = refusedPause.map { min($0 * 2, Self.longestPause) } ?? firstPause
                refusedPause = pause
                report(.paused(reason: error.description, seconds: Self.wholeSeconds(pause)))
                do { try await Task.sleep(for: pause) } catch { return }
                continue // the next look is the probe
            } catch {
                report(.pausedBriefly(reason: "\(error)"))
            }
            // Until a nudge, or `poll` at most: the timer rings the same doorbell.
            let timer = Task { [doorbell] in
                try await Task.sleep(for: Self.poll)
                doorbell.yield()
            }
            defer { timer.cancel() }
            guard await nudged.next() != nil else { return }
        }
    }

    static func wholeSeconds(_ duration: Duration) -> Int {
        Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up))
    }

    // MARK: One recording

    /// Starts transcribing the recording's job (its pieces are its chunks).
    public func follow(jobId: Int64) {
        guard case .recording(let runner, let scope, _) = work else { return }
        scope.add([jobId])
        scope.close()
        let task = Task { try await transcribe(with: runner, until: .finishBatch(scope), pieces: jobId) }
        state.withLock { state in
            state.jobId = jobId
            state.task = task
        }
    }

    /// Whether `follow(jobId:)` was called.
    public var isFollowing: Bool { state.withLock { $0.jobId != nil } }

    /// A piece was queued: idle workers look at once.
    public func pieceQueued(_ jobId: Int64) {
        if case .recording(_, let scope, _) = work { scope.add([jobId]) }
    }

    /// The recording ended: waits for its job to finish, giving up (the jobs stay queued) as
    /// soon as every endpoint is out.
    public func finish() async -> Ending {
        guard case .recording(let runner, _, _) = work else { return .finished }
        let (task, unreachable) = state.withLock { state in
            state.waiting = true
            return (state.task, state.down.count >= runner.endpoints.count)
        }
        if unreachable { runner.stop() }
        guard let task else { return .finished }
        let result = await task.result
        if state.withLock({ $0.down.count >= runner.endpoints.count }) { return .unreachable }
        switch result {
        case .success: return .finished
        case .failure(let error as TranscriptionError) where error.kind == .unreachable: return .unreachable
        case .failure(is CancellationError): return .stopped
        case .failure(let error): return .failed(error)
        }
    }

    /// Stops transcribing (Ctrl-C, a failed take) and waits for the runner to end; its jobs stay queued.
    public func stop() async {
        guard case .recording(let runner, _, _) = work else { return }
        runner.stop()
        _ = await state.withLock({ $0.task })?.result
    }

    /// Tells the runner to stop, without waiting (from a signal handler).
    public func interrupt() {
        if case .recording(let runner, _, _) = work { runner.stop() }
    }

    // MARK: Both

    /// Runs `runner` until `goal`, reporting what the user sees of it as it happens: a
    /// recording's pieces' texts (in order: a piece waits for the ones before it) and its
    /// endpoints going out and coming back.
    private func transcribe(with runner: QueueRunner, until goal: QueueRunner.Goal,
                            pieces jobId: Int64? = nil) async throws -> QueueRunner.Summary {
        guard case .recording(_, _, let texts) = work, let jobId else {
            return try await runner.run(until: goal) { [report] event in
                if case .untranslated(_, let path, let message) = event { report(.untranslated(path: path, message: message)) }
            }
        }
        let run = runner.events(until: goal)
        let onlyOne = runner.endpoints.count == 1
        var shown = 0
        for await event in run {
            switch event {
            case .chunksDone, .transcribed:
                guard texts, let pieces = try? await onThread({ [queue] in try queue.pieceTexts(jobId: jobId) }) else { continue }
                while let text = pieces[shown] {
                    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !trimmed.isEmpty { report(.pieceText(trimmed)) }
                    shown += 1
                }
            case .endpointDown(let endpoint, let message, _):
                out(endpoint, runner: runner)
                report(.endpointDown(endpoint: endpoint, message: message, onlyOne: onlyOne))
            case .endpointBack(let endpoint):
                _ = state.withLock { $0.down.remove(endpoint) }
                report(.endpointBack(endpoint: endpoint, onlyOne: onlyOne))
            case .endpointDropped(let endpoint, let message):
                out(endpoint, runner: runner)
                report(.endpointDropped(endpoint: endpoint, message: message))
            case .untranslated(_, let path, let message):
                report(.untranslated(path: path, message: message))
            default:
                break
            }
        }
        return try await run.summary
    }

    /// Marks an endpoint out; once the recording ended, the last one out stops the run.
    private func out(_ endpoint: String, runner: QueueRunner) {
        let giveUp = state.withLock { state in
            state.down.insert(endpoint)
            return state.waiting && state.down.count >= runner.endpoints.count
        }
        if giveUp { runner.stop() }
    }
}
