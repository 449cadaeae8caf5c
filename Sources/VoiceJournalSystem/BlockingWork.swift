import Foundation
import Synchronization

/// Runs blocking work (an SQLite read or write, hashing a file, closing an encoder) on the
/// process's blocking threads, never on the cooperative pool, and gives back its result: a
/// blocked pool thread would stall every other task of the process. The one way every module
/// does this.
///
/// The work must end on its own: a loop that lives as long as its owner (a capture, a player,
/// a watch) takes a `DedicatedThread`, and work here must never wait for other work queued
/// here, which might be waiting for a thread behind it.
package func onThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        BlockingExecutor.shared.run { continuation.resume(with: Swift.Result { try work() }) }
    }
}

/// A fixed number of threads fed from one queue, for blocking work that ends on its own.
///
/// Threads are started as work arrives, up to `threadLimit`, and then kept; work beyond them
/// waits in the queue. The bound is what makes a flood of requests (a guessed link per
/// request, each one an SQLite read) cost queued closures, not a thread each: before it, every
/// call started a thread of its own.
package final class BlockingExecutor: Sendable {
    /// The process's executor, with `defaultThreadLimit` threads.
    package static let shared = BlockingExecutor(threadLimit: defaultThreadLimit)

    /// Twice the cores, and at least 4: the work is mostly waiting (on the disk, on SQLite's
    /// locks), so more threads than cores keep the cores busy, and a long piece of work (a
    /// folder being queued, a large upload hashed) leaves others room on a small machine.
    package static let defaultThreadLimit = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    /// The most threads this executor starts.
    package let threadLimit: Int

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// The first job not yet taken: taking one moves this on instead of shifting the rest.
        var head = 0
        var threads = 0
        /// Threads waiting for work (or woken and about to take it).
        var idle = 0

        var waiting: Int { jobs.count - head }

        mutating func takeFirst() -> (@Sendable () -> Void)? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count || head > 1024 {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    private let state = Mutex(State())
    /// One signal per queued job: a thread waits here, then takes a job.
    private let queued = DispatchSemaphore(value: 0)

    /// An executor with at most `threadLimit` threads (at least one).
    package init(threadLimit: Int) {
        self.threadLimit = max(1, threadLimit)
    }

    /// Queues `job` to run on one of the executor's threads; returns at once.
    package func run(_ job: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { state in
            state.jobs.append(job)
            guard state.idle < state.waiting, state.threads < threadLimit else { return false }
            state.threads += 1
            return true
        }
        queued.signal()
        if startThread {
            DedicatedThread.start(name: "voicejournal blocking work") { [self] in serve() }
        }
    }

    /// The threads started so far (for tests and measurements).
    package var threadCount: Int { state.withLock { $0.threads } }

    private func serve() {
        while true {
            state.withLock { $0.idle += 1 }
            queued.wait()
            let job = state.withLock { state in
                state.idle -= 1
                return state.takeFirst()
            }
            job?()
        }
    }
}

/// A thread of its own for a loop that lives as long as its owner: a capture or playback
/// loop, a signal or key watch, a queue runner's worker. Such a loop would hold one of the
/// `BlockingExecutor`'s few threads for its whole life; there is one thread per loop, so
/// their number is bounded by the loops the program runs.
package enum DedicatedThread {
    /// Starts `body` on a new thread named `name` (as `ps -L` and a debugger show it).
    package static func start(name: String, qualityOfService: QualityOfService? = nil,
                              _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        if let qualityOfService { thread.qualityOfService = qualityOfService }
        thread.start()
    }

    /// Runs `body` on a new thread named `name` and gives back its result: for a blocking call
    /// from async code that lasts as long as the user wants (playing a recording).
    package static func run<Result: Sendable, Failure: Error>(
        name: String, _ body: @escaping @Sendable () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Swift.Result<Result, Failure>, Never>) in
            start(name: name) { continuation.resume(returning: Swift.Result { () throws(Failure) -> Result in try body() }) }
        }
        return try outcome.get()
    }
}
