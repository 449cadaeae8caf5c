import Foundation
import VoiceJournalStore
import Synchronization

/// The jobs of a batch that is still being queued: `transcribe` adds each transaction's jobs
/// as it lands, so uploads start while the rest of the folder is still probed and hashed,
/// and closes the scope when the last file is queued. A run for it ends once the scope is
/// closed and every job in it is finished. Workers waiting for more are woken when jobs are
/// added.
public final class BatchScope: Sendable {
    private struct State {
        var scope = JobScope([])
        var closed = false
    }

    private let state = Mutex(State())
    /// Rung when jobs are added or the scope closes; a run's workers also ring it when a
    /// job ends, so idle workers notice at once that the batch is finished.
    let doorbell = Doorbell()

    /// An open scope with no jobs yet.
    public init() {}

    /// A closed scope of these jobs.
    public convenience init(closed ids: Set<Int64>) {
        self.init()
        add(ids)
        close()
    }

    /// Adds jobs and wakes the workers waiting for them.
    public func add(_ ids: some Sequence<Int64>) {
        state.withLock { state in
            let grown = state.scope.ids.union(ids)
            if grown.count != state.scope.ids.count { state.scope = JobScope(grown) }
        }
        wake()
    }

    /// No more jobs will be added.
    public func close() {
        state.withLock { $0.closed = true }
        wake()
    }

    /// The jobs so far, encoded for the queue's SQL, and whether that is all of them. Read
    /// together, so "closed and none unfinished" is never judged on a list missing its last jobs.
    var snapshot: (scope: JobScope, closed: Bool) {
        state.withLock { ($0.scope, $0.closed) }
    }

    /// Returns once the scope is closed.
    func waitUntilClosed() {
        while true {
            let seen = doorbell.rings
            if snapshot.closed { return }
            doorbell.wait(after: seen, seconds: 1)
        }
    }

    /// Whether the job is one of the scope's.
    public func contains(_ jobId: Int64) -> Bool { state.withLock { $0.scope.ids.contains(jobId) } }

    private func wake() { doorbell.ring() }
}

/// Wakes threads waiting for something to change. A waiter first reads `rings`, looks (for
/// a job), and waits only while no ring came after its look: a ring between the look and
/// the wait is not missed.
final class Doorbell: Sendable {
    nonisolated(unsafe) private var count = 0 // guarded by `condition`'s lock
    private let condition = NSCondition()

    /// How often it has rung so far.
    var rings: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    func ring() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` for a ring after the `rings` value `seen`.
    func wait(after seen: Int, seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while count == seen, condition.wait(until: deadline) {}
    }
}
