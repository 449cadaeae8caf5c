import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call while it lives, instead of dying mid-write: a
/// recording is finished properly, claimed jobs go back to the queue. `cancel()` gives the
/// signals back their default meaning.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(_ onSignal: @escaping @Sendable (Int32) -> Void) {
        Self.unblockStopSignals()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number) }
            source.resume()
            return source
        }
    }

    /// A parent may have started us with SIGINT and SIGTERM blocked (process supervisors,
    /// test runners); they would then never arrive.
    static func unblockStopSignals() {
        var wanted = sigset_t()
        sigemptyset(&wanted)
        sigaddset(&wanted, SIGINT)
        sigaddset(&wanted, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
