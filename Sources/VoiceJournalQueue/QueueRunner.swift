import Foundation
import VoiceJournalAudio
import Logging
import VoiceJournalStore
import Synchronization
import VoiceJournalTranscription
import VoiceJournalSystem

/// Works through the transcription queue with workers, each on a thread of its own with
/// its own connection (libcurl blocks). The workers belong to endpoints: one server, or a
/// pool of them, each with its own number of workers (its concurrency), the preferred ones
/// taking work first; a server that fails or cannot be reached is taken out for a cool-down
/// while the others go on (`EndpointWatch`). Jobs are claimed with a lease in SQLite, so
/// other runners (another `queue run`, a `record --wait`) can share the queue safely; a
/// lease keeper renews the leases while uploads run.
///
/// `transcribe`, `queue run` and `record --wait` all use this one runner.
public final class QueueRunner: Sendable {
    /// How the runner works.
    public struct Options: Sendable {
        /// The model and its hints, for every job this run processes.
        public var transcription: TranscriptionOptions
        public var retry: RetryPolicy
        /// How long a claim holds without renewal; renewed every third of it.
        public var lease: TimeInterval
        /// How often an idle worker looks for due work.
        public var idlePoll: TimeInterval
        /// How often an unreachable server is tried again, with `retry`'s backoff between
        /// tries, before it is given up (its uploads pause meanwhile; the run gives up when
        /// no server is left).
        public var unreachableProbes: Int
        /// How recordings the API cannot take as they are get sent.
        public var upload: UploadSettings
        /// The language sent when neither the run (`transcription.language`, from `--language`)
        /// nor the recording's person or journal names one: the config file's; nil lets the
        /// model detect it.
        public var fallbackLanguage: String?
        /// Whether every recording of the run is translated to English as well (`--translate`);
        /// a person's or journal's own setting asks for it too.
        public var translate: Bool = false

        public init(transcription: TranscriptionOptions = .init(), retry: RetryPolicy = .init(),
                    lease: TimeInterval = 60, idlePoll: TimeInterval = 0.2, unreachableProbes: Int = 6,
                    upload: UploadSettings = .init()) {
            self.transcription = transcription
            self.upload = upload
            self.retry = retry
            self.lease = lease
            self.idlePoll = idlePoll
            self.unreachableProbes = unreachableProbes
        }
    }

    /// When a run ends.
    public enum Goal: Sendable {
        /// When nothing is queued any more (jobs waiting on backoff are waited for); the job
        /// of a recording still being made counts only by the pieces queued so far.
        case drainQueue
        /// When each of the scope's jobs is done, failed or cancelled (by whichever runner),
        /// and the scope is closed. Live recordings that turn up meanwhile are taken too:
        /// they outrank batch files.
        case finishBatch(BatchScope)

        /// When each of these jobs is done, failed or cancelled.
        public static func finish(_ ids: Set<Int64>) -> Goal { .finishBatch(BatchScope(closed: ids)) }
    }

    /// What happened to a job, reported from the worker threads as it happens.
    public enum Event: Sendable {
        case started(jobId: Int64, path: String)
        case transcribed(jobId: Int64, path: String, seconds: Double)
        /// A long recording's chunks: `done` of `total` transcribed (0 when it was just split).
        /// Its `transcribed` (or `failed`) comes when the last one ends.
        case chunksDone(jobId: Int64, path: String, done: Int, total: Int)
        case willRetry(jobId: Int64, path: String, error: TranscriptionError, after: TimeInterval)
        case failed(jobId: Int64, path: String, message: String)
        /// A job ended done, but with a transcript to doubt (`message` says why and what to
        /// do): every answer was empty although the audio holds speech, or no speech was
        /// heard at all so nothing was uploaded.
        case suspect(jobId: Int64, path: String, message: String)
        /// A translation was asked for the file and is not stored (`message` says why); its
        /// transcript is stored all the same. A server that cannot translate is told once a run.
        case untranslated(jobId: Int64, path: String, message: String)
        /// An endpoint is out: it cannot be reached (`retryingFor` is how long it is tried
        /// again at most), or it failed several uploads in a row (`retryingFor` nil: it is
        /// tried again after a cool-down that grows while it keeps failing). Its uploads
        /// pause (jobs stay queued, no attempt is spent) and the other endpoints take them.
        /// Sent once per outage.
        case endpointDown(endpoint: String, message: String, retryingFor: TimeInterval?)
        /// The endpoint answered again after an outage; its uploads resume.
        case endpointBack(endpoint: String)
        /// The endpoint is left out for the rest of the run: its key or quota was refused,
        /// or it stayed out of reach. Sent only while other endpoints go on; when it was the
        /// last, the run ends with the error instead.
        case endpointDropped(endpoint: String, message: String)
    }

    /// What a run did.
    public struct Summary: Sendable, Equatable {
        public var transcribed = 0
        public var retried = 0
        /// Per endpoint, in the order the runner was given them.
        public var endpoints: [EndpointFigures] = []
        /// The jobs that failed for good in this run.
        public var failedJobs: Set<Int64> = []
        /// How many failed for good.
        public var failed: Int { failedJobs.count }
        /// Jobs done with a transcript to doubt (see `Event.suspect`), in the order they ended.
        public var suspects: [Suspect] = []
        /// Files (or chunks) stored without the translation that was asked for, and why.
        public var untranslated: [Suspect] = []
        public init() {}
    }

    /// A job done with a transcript to doubt, and why.
    public struct Suspect: Sendable, Equatable {
        public var jobId: Int64
        public var path: String
        public var message: String
        public init(jobId: Int64, path: String, message: String) {
            self.jobId = jobId
            self.path = path
            self.message = message
        }
    }

    let queue: JobQueue
    /// The servers uploads go to, each with its workers.
    public let endpoints: [PoolEndpoint]
    /// Workers in all.
    public var workers: Int { endpoints.reduce(0) { $0 + $1.workers } }
    let options: Options
    let logger: Logger
    /// The lease owner every claim of this runner uses.
    package let owner: LeaseOwner
    private let abort = AbortSignal()
    private let stopping = Mutex<StopReason?>(nil)
    /// `stop()` was called (the stop reason may already be another).
    private let stopped = Mutex(false)

    /// Why a run stops; the first reason given is the one it ends with.
    enum StopReason: Sendable {
        case interrupted
        /// The last server refused the run (its key, its quota): the run's error.
        case refused(TranscriptionError)
        /// The last server stayed out of reach, as this sentence says: the run's error is it
        /// and how many files stay queued, counted at the end.
        case outOfReach(String)
        case storeFailed(StoreError)
    }

    /// A runner with `jobs` workers (at least one) on one server.
    public convenience init(queue: JobQueue, client: WhisperClient, jobs: Int, options: Options = .init(), logger: Logger) {
        self.init(queue: queue, endpoints: [PoolEndpoint(client: client, workers: jobs)], options: options, logger: logger)
    }

    /// A runner over a pool of servers (at least one), each with its own workers.
    public init(queue: JobQueue, endpoints: [PoolEndpoint], options: Options = .init(), logger: Logger) {
        precondition(!endpoints.isEmpty, "a runner needs an endpoint")
        self.queue = queue
        self.endpoints = endpoints
        self.options = options
        self.logger = logger
        owner = LeaseOwner.current()
    }

    /// Runs until `goal` is met (a runner runs once; make a new one for another run). Throws
    /// the last server's refusal (`TranscriptionError` whose disposition is `.stopRun`: bad
    /// key, no quota) or `.unreachable` when it stayed out of reach for the whole pause, once
    /// no server is left (for an open batch, once the batch is closed: its files still go
    /// into the queue), and
    /// `CancellationError` after `stop()` or task cancellation; claimed jobs go back to the
    /// queue either way.
    @discardableResult
    public func run(until goal: Goal, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> Summary {
        let run = Run(runner: self, goal: goal, onEvent: onEvent)
        let summary = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Summary, Error>) in
                run.start { continuation.resume(with: $0) }
            }
        } onCancel: {
            stop()
        }
        return summary
    }

    /// Stops the run: transfers in flight are abandoned and their jobs go back to the queue.
    public func stop() {
        stopped.withLock { $0 = true }
        requestStop(.interrupted)
    }

    func requestStop(_ reason: StopReason) {
        stopping.withLock { current in
            if current == nil { current = reason }
        }
        abort.raise()
    }

    var stopReason: StopReason? { stopping.withLock { $0 } }

    /// Whether the run was told to stop (Ctrl-C, a refused key, a failed store, no server left).
    public var isStopping: Bool { stopReason != nil }

    /// Whether files should no longer be queued for this run's batch: it was stopped, a key
    /// was refused or the store failed. When the servers are only out of reach the rest of
    /// the files still go into the queue, so a later `queue run` finds the whole batch; the
    /// run ends once the batch is closed.
    public var takesNoMoreFiles: Bool {
        guard case .outOfReach = stopReason else { return isStopping }
        return wasStopped
    }

    /// Whether `stop()` was called, whatever the run's stop reason.
    var wasStopped: Bool { stopped.withLock { $0 } }

    var abortSignal: AbortSignal { abort }
}

/// One call of `run`: its worker threads, its lease keeper, and its tally.
final class Run: Sendable {
    let runner: QueueRunner
    let goal: QueueRunner.Goal
    let onEvent: @Sendable (QueueRunner.Event) -> Void
    let summary = Mutex(QueueRunner.Summary())
    /// The run's servers, in the runner's order.
    let servers: [RunEndpoint]
    /// Stores the workers' transcripts and claims their next jobs ahead.
    let bookkeeper: Bookkeeper
    private let remainingWorkers: Mutex<Int>
    /// Set once a batch run's jobs are all finished (the batch closed, none unfinished),
    /// which stays so: the workers then end without asking the database again.
    private let batchDone = Mutex(false)
    private let keeperWake = NSConditionLock(condition: 0)

    init(runner: QueueRunner, goal: QueueRunner.Goal, onEvent: @escaping @Sendable (QueueRunner.Event) -> Void) {
        self.runner = runner
        self.goal = goal
        self.onEvent = onEvent
        remainingWorkers = Mutex(runner.workers)
        servers = runner.endpoints.map { RunEndpoint($0, watch: EndpointWatch(policy: runner.options.retry,
                                                                         probes: runner.options.unreachableProbes)) }
        bookkeeper = Bookkeeper(reserveSizes: runner.endpoints.map(\.workers))
    }

    /// The batch the run is limited to, if any.
    var batch: BatchScope? {
        if case .finishBatch(let batch) = goal { return batch }
        return nil
    }

    /// Rung when there may be something new for idle workers: jobs added to the batch, a
    /// job of this run ended.
    var doorbell: Doorbell { batch?.doorbell ?? ownDoorbell }
    private let ownDoorbell = Doorbell()

    /// The jobs the run may claim now (nil: any).
    var scope: JobScope? { batch?.snapshot.scope }

    /// Starts the threads; `finished` is called once, from the last worker to end.
    func start(finished: @escaping @Sendable (Result<QueueRunner.Summary, Error>) -> Void) {
        keepLeases() // takes back jobs of dead runners before the first claim
        ChunkFiles(home: runner.queue.home, owner: runner.owner).sweep(queue: runner.queue, logger: runner.logger)
        bookkeeper.claimFirstJobs(for: self)
        DedicatedThread.start(name: "voicejournal-leases") { [self] in
            while keeperWake.lock(whenCondition: 1, before: Date().addingTimeInterval(runner.options.lease / 3)) == false {
                keepLeases()
            }
            keeperWake.unlock()
        }
        bookkeeper.start(for: self)
        let assignments = servers.indices.flatMap { server in Array(repeating: server, count: servers[server].workers) }
        for (index, server) in assignments.enumerated() {
            DedicatedThread.start(name: "voicejournal-worker-\(index)") { [self] in
                Worker(run: self, index: index, server: server).work()
                servers[server].workerEnded()
                let last = remainingWorkers.withLock { count -> Bool in
                    count -= 1
                    return count == 0
                }
                guard last else { return }
                bookkeeper.close() // the last transcripts stored, the jobs claimed ahead handed back
                keeperWake.lock()
                keeperWake.unlock(withCondition: 1)
                finished(outcome())
            }
        }
    }

    private func outcome() -> Result<QueueRunner.Summary, Error> {
        switch runner.stopReason {
        case nil: .success(summary.withLock { summary in
            summary.endpoints = servers.map(\.figuresAtEnd)
            return summary
        })
        case .interrupted: .failure(CancellationError())
        case .refused(let error): .failure(error)
        case .outOfReach(let outage): .failure(outOfReach(outage))
        case .storeFailed(let error): .failure(error)
        }
    }

    /// The error of a run whose last server stayed out of reach: the outage and the files
    /// that stay queued, counted once a batch is closed (its feeder queues the rest of its
    /// files first), so the number is the one `queue status` shows afterwards.
    private func outOfReach(_ outage: String) -> Error {
        batch?.waitUntilClosed()
        // Interrupted while the rest was queued: an interruption, as the user asked.
        if runner.wasStopped { return CancellationError() }
        let left: Int
        do { left = try runner.queue.unfinishedJobCount(scope: scope) } catch { return error }
        return TranscriptionError(kind: .unreachable, description: outage
            + "; \(left) file\(left == 1 ? "" : "s") stay\(left == 1 ? "s" : "") queued: run `voicejournal queue run` when it is back")
    }

    /// Whether the run's batch is closed with every job finished; false for a run that drains
    /// the queue. Asks the database only until the answer is yes.
    func batchIsFinished() throws -> Bool {
        guard let batch else { return false }
        if batchDone.withLock({ $0 }) { return true }
        let (scope, closed) = batch.snapshot
        guard closed, try runner.queue.unfinishedJobCount(scope: scope) == 0 else { return false }
        batchDone.withLock { $0 = true }
        return true
    }

    /// Whether the batch was found finished already (no database read).
    var batchKnownFinished: Bool { batchDone.withLock { $0 } }

    /// Renews this runner's leases, and expires those of runners on this machine that died.
    private func keepLeases() {
        do {
            try runner.queue.renewLeases(owner: runner.owner.description, lease: runner.options.lease)
            try takeBackJobsOfStoppedRunners()
        } catch {
            runner.logger.warning("could not renew leases", metadata: ["error": "\(error)"])
        }
    }

    /// Ends the leases of running jobs whose owner was a process on this machine that is
    /// gone (killed, crashed), so they can be claimed now rather than when the lease runs
    /// out. One small query (the distinct owners of running jobs); workers call it whenever
    /// they find nothing to claim. Returns true when some job became due.
    @discardableResult
    func takeBackJobsOfStoppedRunners() throws -> Bool {
        let gone = try runner.queue.leaseOwners().filter { LeaseOwner($0)?.isGone ?? false }
        guard !gone.isEmpty else { return false }
        let expired = try runner.queue.expireLeases(of: gone)
        if expired > 0 {
            runner.logger.info("taking back jobs of stopped runners", metadata: ["owners": "\(gone.sorted())", "jobs": "\(expired)"])
        }
        return expired > 0
    }
}
