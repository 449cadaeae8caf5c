import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a call while it lives, instead of dying mid-write: a
/// recording is finished properly, claimed jobs go back to the queue. `cancel()` gives the
/// signals back their default meaning.
///
/// The dispatch sources behind it are made once for the process and never cancelled, and
/// `signal()` is called once, before them: on Linux a later call takes the signal back from
/// libdispatch, and a second watch that called it again would never hear Ctrl-C.
package final class SignalWatch {
    private let id: Int

    package init(_ onSignal: @escaping @Sendable (Int32) -> Void) {
        Self.unblockStopSignals()
        id = SignalSources.shared.add(onSignal)
    }

    /// A parent may have started us with SIGINT and SIGTERM blocked (process supervisors,
    /// test runners); they would then never arrive.
    package static func unblockStopSignals() {
        var wanted = sigset_t()
        sigemptyset(&wanted)
        sigaddset(&wanted, SIGINT)
        sigaddset(&wanted, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    package func cancel() {
        SignalSources.shared.remove(id)
    }

    /// Runs `work` as a task of its own that SIGINT or SIGTERM cancels, and gives back what
    /// it returns or throws (a `CancellationError` when a signal stopped it).
    package static func cancelling<Result: Sendable>(_ work: sending @escaping () async throws -> Result) async throws -> Result {
        let task = Task(operation: work)
        let watch = SignalWatch { _ in task.cancel() }
        defer { watch.cancel() }
        return try await task.value
    }
}

/// The process's one source per stop signal, and the watches listening to them now. The
/// signals are set to be ignored once, before the sources are made (libdispatch then takes
/// them); any later `signal()` call would take them back from it, so a signal that arrives
/// while no watch listens does the default itself: the process ends as it would have.
private final class SignalSources: Sendable {
    static let shared = SignalSources()

    private struct Listeners {
        var next = 0
        var calls: [Int: @Sendable (Int32) -> Void] = [:]
    }
    private let listeners = Mutex(Listeners())
    // Kept for the life of the process; only made and resumed in `init`.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
    private static let numbers = [SIGINT, SIGTERM]

    private init() {
        var made: [any DispatchSourceSignal] = []
        for number in Self.numbers {
            signal(number, SIG_IGN)
            made.append(DispatchSource.makeSignalSource(signal: number, queue: .global()))
        }
        sources = made
        for (source, number) in zip(sources, Self.numbers) {
            source.setEventHandler { [self] in
                let calls = listeners.withLock { Array($0.calls.values) }
                guard !calls.isEmpty else {
                    // No watch: the signal's default meaning, ending the process.
                    signal(number, SIG_DFL)
                    kill(getpid(), number)
                    return
                }
                for call in calls { call(number) }
            }
            source.resume()
        }
    }

    func add(_ call: @escaping @Sendable (Int32) -> Void) -> Int {
        listeners.withLock { listeners in
            listeners.next += 1
            listeners.calls[listeners.next] = call
            return listeners.next
        }
    }

    func remove(_ id: Int) {
        listeners.withLock { _ = $0.calls.removeValue(forKey: id) }
    }
}
