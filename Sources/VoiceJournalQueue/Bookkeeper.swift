import Foundation
import Logging
import Synchronization
import VoiceJournalStore
import VoiceJournalSystem

/// The run's writer for finished uploads: on a thread of its own it stores their
/// transcripts and claims jobs ahead for the workers, so a worker sends its next file the
/// moment an answer is in instead of waiting its turn at SQLite's one writer. Answers that
/// arrive together are stored in one transaction. With eight workers against a fast server
/// those waits were a sixth of a batch's time.
///
/// A transcript counts as stored (and is reported `transcribed`) only once its transaction
/// has committed. Until then its job stays running under this runner's lease, so a kill in
/// between leaves it to be done again, never lost; the jobs claimed ahead are leased the same
/// way and handed back when the run stops or pauses.
final class Bookkeeper: Sendable {
    /// An upload's result waiting to be stored.
    struct Answer: Sendable {
        var completion: JobQueue.Completion
        var path: String
        /// When its upload began (system uptime), for the `transcribed` event.
        var started: TimeInterval
    }

    /// How many jobs are kept claimed ahead for each server: one per worker, so every worker
    /// whose answer comes in finds its next job waiting even when they all answer at once.
    /// Each job is claimed for its server (`queue status` shows where it goes).
    private let reserveSizes: [Int]

    private struct State {
        var answers: [Answer] = []
        var reserves: [[JobQueue.ClaimedJob]]
        var storing = false
        var closing = false
        var closed = false
    }
    private let state: Mutex<State>
    /// Only for waiting (the thread for answers, `close()` for the end): the state is under
    /// `state`'s lock. A change a waiter waits for is announced under this lock after it is
    /// made, and a waiter looks at the state under it, so no announcement falls between.
    private let condition = NSCondition()

    /// A bookkeeper for servers with these numbers of workers.
    init(reserveSizes: [Int]) {
        self.reserveSizes = reserveSizes
        state = Mutex(State(reserves: reserveSizes.map { _ in [] }))
    }

    /// Makes `change` and wakes the waiters.
    private func announce(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `ready` holds, then gives back `take` of the state, under one lock.
    private func wait<Taken>(until ready: (State) -> Bool, _ take: (inout State) -> Taken) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let taken: Taken? = state.withLock { state in ready(state) ? take(&state) : nil }
            if let taken { return taken }
            condition.wait()
        }
    }

    /// Starts the bookkeeper's thread, which works for `run` until `close()`.
    func start(for run: Run) {
        DedicatedThread.start(name: "voicejournal-bookkeeper") { [self] in work(for: run) }
    }

    /// Hands over an upload's result to be stored; returns at once.
    func store(_ answer: Answer) {
        announce { $0.answers.append(answer) }
    }

    /// A job claimed ahead for `server`, with its recording and vocabulary, if one is waiting.
    func take(for server: Int) -> JobQueue.ClaimedJob? {
        state.withLock { $0.reserves[server].isEmpty ? nil : $0.reserves[server].removeFirst() }
    }

    /// Whether nothing is waiting to be stored, being stored or claimed ahead: a run whose
    /// queue looks empty is finished only then (the reserve's jobs are running, not queued).
    var isIdle: Bool {
        state.withLock { $0.answers.isEmpty && $0.reserves.allSatisfy(\.isEmpty) && !$0.storing }
    }

    /// Gives the jobs claimed ahead for `server` (nil: for every server) back to the queue
    /// (the server is out: the other servers, and other runners, may take them meanwhile).
    func handBackReserve(of server: Int?, to runner: QueueRunner) throws {
        let held = state.withLock { state in
            var held: [JobQueue.ClaimedJob] = []
            for index in state.reserves.indices where server == nil || server == index {
                held += state.reserves[index]
                state.reserves[index] = []
            }
            return held
        }
        for (job, _, _) in held {
            if let id = job.id { try runner.queue.releaseJob(id: id, owner: runner.owner.description) }
        }
    }

    /// Stores the answers still waiting, hands the reserve back and ends the thread; returns
    /// when that is done. Called once, when the workers have ended.
    func close() {
        announce { $0.closing = true }
        wait(until: \.closed) { _ in }
    }

    /// Claims every worker's first job in one transaction, before the workers start: each
    /// would otherwise claim its own, one transaction after another.
    func claimFirstJobs(for run: Run) {
        let claims = self.claims(room: reserveSizes, for: run)
        guard !claims.isEmpty else { return }
        let claimed = storeAndClaim([], claims: claims, for: run)
        state.withLock { state in
            for (server, jobs) in zip(claims.map(\.server), claimed) { state.reserves[server] += jobs }
        }
    }

    /// Stores `answers` and makes `claims` in one transaction; the jobs each claim got. A
    /// failed store stops the run.
    private func storeAndClaim(_ answers: [Answer], claims: [(server: Int, claim: JobQueue.Claim)],
                               for run: Run) -> [[JobQueue.ClaimedJob]] {
        let runner = run.runner, queue = runner.queue
        do {
            let stored = try queue.completeJobsAndClaim(
                answers.map(\.completion), owner: runner.owner.description, claims: claims.map(\.claim),
                lease: runner.options.lease, scope: run.scope)
            report(answers, kept: stored.kept, to: run)
            return stored.claimed
        } catch {
            runner.logger.debug("queue store failed", metadata: ["error": "\(error)"])
            runner.requestStop(.storeFailed(StoreError.classify(error, home: queue.home)
                ?? StoreError(.storageFailure, "the journal database failed while storing a transcript: \(error)")))
            return []
        }
    }

    private func work(for run: Run) {
        let runner = run.runner
        while let (answers, room) = nextAnswers() {
            let claims = self.claims(room: room, for: run)
            let claimed = storeAndClaim(answers, claims: claims, for: run)
            let nothingAhead = state.withLock { state in
                for (server, jobs) in zip(claims.map(\.server), claimed) { state.reserves[server] += jobs }
                state.storing = false
                return state.reserves.allSatisfy(\.isEmpty) && state.answers.isEmpty
            }
            // A server may have been left out while its jobs were being claimed (its key refused
            // meanwhile): its workers handed back an empty reserve and ended, so these go back now.
            for server in Set(claims.map(\.server)) where run.servers[server].watch.isOut {
                do {
                    try handBackReserve(of: server, to: runner)
                } catch {
                    runner.logger.warning("could not hand back jobs claimed ahead", metadata: ["error": "\(error)"])
                }
            }
            // With nothing claimed ahead the batch may be done: found here once, the idle
            // workers end on the doorbell instead of each asking the database.
            if nothingAhead && runner.stopReason == nil { _ = try? run.batchIsFinished() }
            run.doorbell.ring() // the run may be finished; claimed jobs are waiting
        }
        do {
            try handBackReserve(of: nil, to: runner)
        } catch {
            runner.logger.warning("could not hand back jobs claimed ahead", metadata: ["error": "\(error)"])
        }
        announce { $0.closed = true }
    }

    /// The answers waiting (at least one) and how many jobs each server's reserve lacks, or
    /// nil when closing with no answer left.
    private func nextAnswers() -> (answers: [Answer], room: [Int])? {
        wait(until: { !$0.answers.isEmpty || $0.closing }) { state in
            if state.answers.isEmpty { return nil }
            state.storing = true
            defer { state.answers = [] }
            return (state.answers, zip(reserveSizes, state.reserves).map { max(0, $0 - $1.count) })
        }
    }

    /// What to claim ahead: only while the run goes on, and only for servers that take
    /// uploads now, the preferred ones first (so the last jobs of a run go to them). An
    /// overflow server gets jobs ahead only when no preferred one has a worker free.
    private func claims(room: [Int], for run: Run) -> [(server: Int, claim: JobQueue.Claim)] {
        guard run.runner.stopReason == nil else { return [] }
        return run.servers.indices
            .filter { room[$0] > 0 && run.servers[$0].watch.isAnswering && !run.prefersOthers(over: $0) }
            .sorted { (run.servers[$0].priority, $1) > (run.servers[$1].priority, $0) }
            .map { ($0, JobQueue.Claim(endpoint: run.servers[$0].name, count: room[$0], whileAtLeast: run.tailMinimum(for: $0))) }
    }

    private func report(_ answers: [Answer], kept: [Bool], to run: Run) {
        let now = ProcessInfo.processInfo.systemUptime
        for (answer, kept) in zip(answers, kept) {
            let jobId = answer.completion.jobId
            if kept {
                run.summary.withLock { $0.transcribed += 1 }
                run.onEvent(.transcribed(jobId: jobId, path: answer.path, seconds: now - answer.started))
            } else {
                run.runner.logger.warning("dropped a result: the job was cancelled or taken over", metadata: ["job": "\(jobId)"])
            }
        }
    }
}
