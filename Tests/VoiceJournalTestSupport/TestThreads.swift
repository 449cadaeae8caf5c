import Foundation
import Synchronization
import Testing

/// A few threads of the tests' own, for tests that block: they wait for a `voicejournal`
/// process, a fixture tool or a server to end. Swift Testing runs every test on Swift's
/// cooperative pool, which has one thread per core (two on CI); two tests blocked there in
/// `waitUntilExit` stop every other test on the machine, and an async test waiting 20 ms for
/// a sleep to end waits minutes instead (its time limit runs out, or a paced file plays to the
/// end before it is cut). On these threads a blocked test blocks only the other blocking tests.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `waiting` is guarded by its Mutex; `ready` counts the jobs in it.
    /// Two per core: most of these tests wait (for a process, a server, audio paced in real
    /// time) more than they compute, and at two per core the machine is kept busy without
    /// running more processes at once than it has memory and patience for.
    public static let shared = TestThreads(count: 2 * max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let waiting = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "test-thread-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        waiting.withLock { $0.append(job) }
        ready.signal()
    }

    private func work() -> Never {
        while true {
            ready.wait()
            let job = waiting.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a suite's tests on `TestThreads` instead of Swift's cooperative pool: for suites
/// whose tests block (see `TestThreads`).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// The suite's tests block: they run on threads of the tests' own (see `TestThreads`).
    public static var onTestThreads: Self { OnTestThreads() }
}
