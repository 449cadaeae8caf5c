import Foundation
import Logging
import Synchronization
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTranscription

/// Works through the reflection queue (`reflect = "auto"`, `record --reflect`): claims a job
/// with a lease, asks the pool's first server that takes requests, and stores what came of
/// it — exactly once per entry, whatever fails or is killed on the way.
///
/// The rules are the transcription queue's: a failure that may pass (429, 5xx, a broken
/// connection, an answer that never came) puts the job back with backoff, never sooner than
/// the server's Retry-After; a server that cannot be reached, or fails three requests in a
/// row, is taken out for a cool-down and the next server of the pool takes the work
/// (`EndpointWatch`, the same breaker); a refused key or an unknown model takes its server
/// out for the run, and stops the run when it was the last. A runner killed mid-request
/// leaves its job leased; the next runner on this machine sees the process gone and takes
/// it at once. An entry with a reflection already kept finishes its job without a request,
/// so one stored just before a kill is never asked for twice.
///
/// One request at a time: a local chat server answers one at a time anyway.
public final class ReflectionRunner: Sendable {
    /// How the runner works.
    public struct Options: Sendable {
        public var retry: RetryPolicy
        /// How long a claim holds without renewal; renewed every third of it.
        public var lease: TimeInterval
        /// How often the runner looks again when the jobs left wait for a backoff.
        public var idlePoll: TimeInterval
        /// Probes of an unreachable server before it is given up for the run.
        public var unreachableProbes: Int

        public init(retry: RetryPolicy = .init(), lease: TimeInterval = 60, idlePoll: TimeInterval = 0.2, unreachableProbes: Int = 6) {
            self.retry = retry
            self.lease = lease
            self.idlePoll = idlePoll
            self.unreachableProbes = unreachableProbes
        }

        /// The defaults with the transcription queue's two tunings from the environment that
        /// tests shorten: `VOICEJOURNAL_RETRY_BASE` (seconds of the first backoff) and
        /// `VOICEJOURNAL_LEASE_SECONDS` (how long a claim holds).
        public static func from(environment: [String: String]) -> Options {
            var options = Options()
            if let base = environment["VOICEJOURNAL_RETRY_BASE"].flatMap(Double.init), base > 0, base.isFinite { options.retry.base = base }
            if let lease = environment["VOICEJOURNAL_LEASE_SECONDS"].flatMap(Double.init), lease > 0, lease.isFinite {
                options.lease = min(lease, 3600)
            }
            return options
        }
    }

    /// When a run ends.
    public enum Goal: Sendable, Equatable {
        /// When no job that can be claimed is left (those still waiting for their entry's
        /// transcript stay queued for a later run).
        case drainQueue
        /// When the jobs of these entries are done or failed, or wait for a transcript.
        case entries(Set<Int64>)

        var entries: Set<Int64>? {
            if case .entries(let ids) = self { return ids }
            return nil
        }
    }

    /// What happened, as it happens.
    public enum Event: Sendable {
        /// A reflection is kept for the entry (valid, or failed its checks).
        case reflected(entryId: Int64, reflection: StoredReflection, endpoint: String)
        case willRetry(entryId: Int64, error: ChatError, after: TimeInterval)
        /// The job failed for good.
        case failed(entryId: Int64, message: String)
        /// A server is out for a cool-down; the others take its work.
        case endpointDown(endpoint: String, message: String)
        case endpointBack(endpoint: String)
        /// A server is out for the rest of the run (sent while others go on).
        case endpointDropped(endpoint: String, message: String)
    }

    /// What a run did.
    public struct Summary: Sendable, Equatable {
        /// Reflections kept (valid or failed their checks), and how many of those failed them.
        public var reflected = 0
        public var failedChecks = 0
        /// Jobs that failed for good.
        public var failed = 0
        public var retried = 0
        public init() {}
    }

    private struct Member: Sendable {
        let reflector: Reflector
        let watch: EndpointWatch
        var name: String { reflector.endpoint.shownBaseURL }
    }

    private let store: JournalStore
    private let members: [Member]
    private let options: Options
    private let logger: Logger
    private let owner = LeaseOwner.current()
    private let abort = AbortSignal()

    /// A runner over `endpoints` (at least one), the preferred first.
    public init(store: JournalStore, endpoints: [ChatEndpoint], options: Options = .init(), logger: Logger) {
        precondition(!endpoints.isEmpty, "a reflection runner needs a chat endpoint")
        self.store = store
        self.options = options
        self.logger = logger
        members = endpoints.map { endpoint in
            // One try per claim: the queue, not the request, waits between tries.
            Member(reflector: Reflector(endpoint: endpoint, policy: options.retry, maxAttempts: 1, logger: logger),
                   watch: EndpointWatch(policy: options.retry, probes: options.unreachableProbes))
        }
    }

    /// Stops the run: a request in flight is abandoned and its job goes back to the queue.
    public func stop() { abort.raise() }

    /// Runs until `goal` is met. Throws the last server's refusal (a `ChatError` whose
    /// disposition is `.stopRun`), `.unreachable` when no server of the pool could be reached,
    /// and `CancellationError` after `stop()`; a claimed job goes back to the queue either way.
    @discardableResult
    public func run(until goal: Goal = .drainQueue, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> Summary {
        try await withTaskCancellationHandler {
            try await loop(goal, onEvent)
        } onCancel: {
            stop()
        }
    }

    private func loop(_ goal: Goal, _ onEvent: @escaping @Sendable (Event) -> Void) async throws -> Summary {
        var summary = Summary()
        let gone = try store.reflectionLeaseOwners().filter { LeaseOwner($0)?.isGone ?? false }
        try store.expireReflectionLeases(of: gone)
        var lastRefusal: ChatError?
        while true {
            if abort.isRaised { throw CancellationError() }
            guard let (index, turn) = nextMember() else {
                throw lastRefusal ?? ChatError(kind: .unreachable, description: "no chat server of the pool could be reached; "
                    + "the reflections stay queued: start the server (voicejournal-chat-server) and run `voicejournal queue run`")
            }
            if case .wait(let seconds) = turn {
                try await pause(seconds)
                continue
            }
            let member = members[index]
            guard let job = try store.claimReflectionJob(owner: owner.description, lease: options.lease, endpoint: member.name,
                                                         entries: goal.entries) else {
                member.watch.endTurn(worker: 0)
                let pending = try store.pendingReflectionJobs(entries: goal.entries)
                guard pending.claimable > 0 else { return summary }
                try await pause(options.idlePoll)
                continue
            }
            switch try await attempt(job, on: member) {
            case .success(let reflection):
                if member.watch.answered() { onEvent(.endpointBack(endpoint: member.name)) }
                summary.reflected += 1
                if reflection.status == .failed { summary.failedChecks += 1 }
                onEvent(.reflected(entryId: job.entryId, reflection: reflection, endpoint: member.name))
            case .failure(let failure):
                if let refusal = try handle(failure, of: job, on: member, summary: &summary, onEvent: onEvent) {
                    lastRefusal = refusal
                }
            }
        }
    }

    /// The first server that takes a request now (or probes), else the one that waits the
    /// shortest; nil when every server is out for the run.
    private func nextMember() -> (Int, EndpointWatch.Turn)? {
        var soonest: (Int, TimeInterval)?
        for (index, member) in members.enumerated() {
            switch member.watch.turn(worker: 0) {
            case .work, .probe: return (index, .work)
            case .wait(let seconds): if soonest == nil || seconds < soonest!.1 { soonest = (index, seconds) }
            case .out: continue
            }
        }
        return soonest.map { ($0.0, .wait($0.1)) }
    }

    private enum Failure: Error {
        case chat(ChatError)
        /// The entry cannot be reflected on (no words): the job fails for good.
        case entry(String)
    }

    /// One claimed job on `member`'s server, its lease renewed meanwhile.
    private func attempt(_ job: ReflectionJob, on member: Member) async throws -> Result<StoredReflection, Failure> {
        let renewal = Task { [store, owner, options] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(options.lease / 3))
                if Task.isCancelled { break }
                _ = try? store.renewReflectionLeases(owner: owner.description, lease: options.lease)
            }
        }
        defer { renewal.cancel() }
        switch await reflect(job.entryId, with: member.reflector) {
        case .success(let made):
            try store.finishReflectionJob(id: job.id ?? 0, owner: owner.description, reflectionId: made.reflection.id)
            return .success(made.reflection)
        case .failure(let error as ChatError): return .failure(.chat(error))
        case .failure(let error as ReflectionError): return .failure(.entry(error.description))
        case .failure(let error as StoreError) where error.kind == .notFound: return .failure(.entry(error.description))
        case .failure(let error):
            try? store.releaseReflectionJob(id: job.id ?? 0, owner: owner.description)
            throw error
        }
    }

    /// The reflector's work on a thread of its own (libcurl and SQLite block), as a result.
    private func reflect(_ entryId: Int64, with reflector: Reflector) async -> Result<Reflector.Outcome, any Error> {
        do {
            return .success(try await onThread { [store, abort] in try reflector.reflect(entryId: entryId, in: store, abort: abort) })
        } catch {
            return .failure(error)
        }
    }

    /// What a failed attempt means for the job and the server; returns the refusal that takes
    /// the server out for the run, when it was one.
    private func handle(_ failure: Failure, of job: ReflectionJob, on member: Member, summary: inout Summary,
                        onEvent: @Sendable (Event) -> Void) throws -> ChatError? {
        switch failure {
        case .entry(let message):
            try store.failReflectionJob(id: job.id ?? 0, owner: owner.description, error: message, retryAt: nil)
            summary.failed += 1
            onEvent(.failed(entryId: job.entryId, message: message))
            return nil
        case .chat(let error):
            return try requestFailed(error, of: job, on: member, summary: &summary, onEvent: onEvent)
        }
    }

    /// A request that failed: a stop hands the job back and ends the run; a refusal or a
    /// server out of reach hands it back and says what became of the server; anything else
    /// is an attempt spent (`spend`).
    private func requestFailed(_ error: ChatError, of job: ReflectionJob, on member: Member, summary: inout Summary,
                               onEvent: @Sendable (Event) -> Void) throws -> ChatError? {
        let id = job.id ?? 0, owner = owner.description
        if error.kind == .cancelled || abort.isRaised {
            try store.releaseReflectionJob(id: id, owner: owner)
            throw CancellationError()
        }
        if error.disposition == .stopRun {
            try store.releaseReflectionJob(id: id, owner: owner, note: error.description)
            if member.watch.drop(), members.contains(where: { !$0.watch.isOut }) {
                onEvent(.endpointDropped(endpoint: member.name, message: error.description))
            }
            return error
        }
        if error.kind == .unreachable {
            // No attempt is spent on an outage: the job waits for this server or goes to another.
            try store.releaseReflectionJob(id: id, owner: owner, note: error.description)
            switch member.watch.unreachable(worker: 0, nothingListens: error.nothingListens) {
            case .paused: onEvent(.endpointDown(endpoint: member.name, message: error.description))
            case .givesUp where members.contains(where: { !$0.watch.isOut }):
                onEvent(.endpointDropped(endpoint: member.name, message: error.description))
            case .givesUp, .stillUp, .stillPaused: break
            }
            return nil
        }
        try spend(job, on: member, error: error, summary: &summary, onEvent: onEvent)
        return nil
    }

    /// An attempt spent: the job goes back with backoff when the failure may pass and attempts
    /// are left, else fails for good; a server failing this way counts towards its cool-down.
    private func spend(_ job: ReflectionJob, on member: Member, error: ChatError, summary: inout Summary,
                       onEvent: @Sendable (Event) -> Void) throws {
        if [.serverError, .timeout, .connection, .noAnswer, .malformedResponse].contains(error.kind),
           member.watch.serverFailed(worker: 0) == .paused {
            onEvent(.endpointDown(endpoint: member.name, message: error.description))
        }
        let retryAt: Date? = error.disposition == .retry
            ? Date().addingTimeInterval(options.retry.delay(afterAttempt: job.attempts, serverWait: error.retryAfter)) : nil
        let after = try store.failReflectionJob(id: job.id ?? 0, owner: owner.description, error: error.description, retryAt: retryAt)
        if after?.state == .queued, let retryAt {
            summary.retried += 1
            onEvent(.willRetry(entryId: job.entryId, error: error, after: retryAt.timeIntervalSinceNow))
        } else {
            summary.failed += 1
            onEvent(.failed(entryId: job.entryId, message: error.description))
        }
    }

    /// Sleeps `seconds` (at most a second at a time), ending early when the run is stopped.
    private func pause(_ seconds: TimeInterval) async throws {
        let until = ProcessInfo.processInfo.systemUptime + max(0.01, seconds)
        while ProcessInfo.processInfo.systemUptime < until {
            if abort.isRaised { throw CancellationError() }
            try await Task.sleep(for: .seconds(min(0.1, max(0.001, until - ProcessInfo.processInfo.systemUptime))))
        }
    }
}
