import Foundation
import Store
import Synchronization

/// The jobs of a batch that is still being queued: `transcribe` adds each transaction's jobs
/// as it lands, so uploads start while the rest of the folder is still probed and hashed,
/// and closes the scope when the last file is queued. A run for it ends once the scope is
/// closed and every job in it is finished. Workers waiting for more are woken when jobs are
/// added.
public final class BatchScope: Sendable {
    private struct State {
        var ids: Set<Int64> = []
        var encoded = JobScope([])
        var closed = false
    }

    private let state = Mutex(State())
    /// Counts additions (and the close), under `more`'s lock: a worker that looked for jobs
    /// at generation N and found none waits only while it is still N, so an addition that
    /// lands between its look and its wait is not missed.
    nonisolated(unsafe) private var generation = 0
    private let more = NSCondition()

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
            let before = state.ids.count
            state.ids.formUnion(ids)
            if state.ids.count != before { state.encoded = JobScope(state.ids) }
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
        state.withLock { ($0.encoded, $0.closed) }
    }

    /// Whether the job is one of the scope's.
    public func contains(_ jobId: Int64) -> Bool { state.withLock { $0.ids.contains(jobId) } }

    /// The count of changes so far; pass it to `waitForMore` after looking for jobs.
    var changes: Int {
        more.lock()
        defer { more.unlock() }
        return generation
    }

    /// Waits up to `seconds` for jobs to be added, or the scope to close, after `changes`.
    func waitForMore(after changes: Int, seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        more.lock()
        defer { more.unlock() }
        while generation == changes, more.wait(until: deadline) {}
    }

    private func wake() {
        more.lock()
        generation += 1
        more.broadcast()
        more.unlock()
    }
}
