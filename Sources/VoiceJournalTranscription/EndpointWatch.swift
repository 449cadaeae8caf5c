import Foundation
import Synchronization

/// Whether one server of a run can take uploads: a circuit breaker. When an upload finds it
/// unreachable (connection refused, unknown host, no connection within the connect timeout),
/// or it fails `tripAfter` uploads in a row with a server error, a timeout or a broken
/// connection, every upload would fail the same way: its workers pause instead of each
/// retrying its own file, and the other servers of the pool take the work. One worker at a
/// time then probes with the next upload after the retry policy's backoff, which grows with
/// each failed probe (the cool-down); the first good answer resumes everyone. A server that
/// stays unreachable for `probes` probes is given up for the rest of the run; one that
/// answers with errors keeps being probed (its jobs spend their attempts as usual, so the
/// run ends). Jobs are handed back untouched while it is out, so no attempt is spent on an
/// outage.
package final class EndpointWatch: Sendable {
    /// What a worker does next.
    package enum Turn: Equatable {
        /// Work as usual.
        case work
        /// Claim a job and upload it: it is the probe.
        case probe
        /// The server is out for now: wait this long, then ask again.
        case wait(TimeInterval)
        /// The server is out for the rest of the run (given up, or its key was refused).
        case out
    }

    /// What a failed upload means for the server.
    package enum Verdict: Equatable {
        /// Not (yet) a reason to take the server out.
        case stillUp
        /// The server is out from now on, for a cool-down (tell the user, once).
        case paused
        /// The server was already out; it keeps being probed.
        case stillPaused
        /// The last probe failed too: it is given up, after this many seconds of outage.
        case givesUp(after: TimeInterval)
    }

    private struct Outage {
        var since: TimeInterval
        var failedProbes = 0
        var nextProbe: TimeInterval
        /// The worker whose upload is the probe now.
        var prober: Int?
        /// False while the server answers with errors rather than not at all: such an
        /// outage is never given up.
        var unreachable: Bool
    }

    private struct State {
        var outage: Outage?
        /// Server errors, timeouts and broken connections since the last good answer.
        var failuresInARow = 0
        var out = false
        /// It answered once in this run: refused later, it may be restarting.
        var answeredOnce = false
    }

    private let state = Mutex(State())
    private let policy: RetryPolicy
    private let probes: Int
    private let tripAfter: Int

    /// Uploads failing in a row (server errors, timeouts, broken connections) that take a
    /// server out for a cool-down.
    package static let defaultTripAfter = 3

    package init(policy: RetryPolicy, probes: Int, tripAfter: Int = EndpointWatch.defaultTripAfter) {
        self.policy = policy
        self.probes = max(1, probes)
        self.tripAfter = max(1, tripAfter)
    }

    /// How long an unreachable server is probed at most: the backoff before each probe, added up.
    package var patience: TimeInterval {
        (1...probes).reduce(0) { $0 + policy.bound(afterAttempt: $1) }
    }

    /// Whether `worker` may work, should probe, waits, or is done with this server.
    package func turn(worker: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Turn {
        state.withLock { state in
            if state.out { return .out }
            guard let current = state.outage else { return .work }
            if current.prober == nil && now >= current.nextProbe {
                state.outage?.prober = worker
                return .probe
            }
            return .wait(current.prober == nil ? current.nextProbe - now : policy.base)
        }
    }

    /// `worker`'s upload could not reach the server. `nothingListens`: it was refused on this
    /// machine; a server that has not answered in this run is then not running at all and
    /// is given up at once, not waited for as a busy one (one that answered before may be
    /// restarting, and is probed as usual).
    package func unreachable(worker: Int, nothingListens: Bool = false, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Verdict {
        let notRunning = state.withLock { state in
            guard nothingListens, !state.answeredOnce, !state.out else { return false }
            state.out = true
            return true
        }
        return notRunning ? .givesUp(after: 0) : failed(worker: worker, unreachable: true, now: now)
    }

    /// `worker`'s upload failed with a server error, a timeout or a broken connection: the
    /// server is there but not well. Takes it out when that happened `tripAfter` times in a row.
    package func serverFailed(worker: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Verdict {
        failed(worker: worker, unreachable: false, now: now)
    }

    private func failed(worker: Int, unreachable: Bool, now: TimeInterval) -> Verdict {
        state.withLock { state in
            if state.out { return .stillPaused }
            guard var current = state.outage else {
                state.failuresInARow += 1
                guard unreachable || state.failuresInARow >= tripAfter else { return .stillUp }
                state.outage = Outage(since: now, nextProbe: now + policy.bound(afterAttempt: 1), unreachable: unreachable)
                return .paused
            }
            // Uploads that were under way when the outage began fail too; only probes count.
            guard current.prober == worker else { return .stillPaused }
            current.failedProbes += 1
            current.prober = nil
            current.unreachable = unreachable
            current.nextProbe = now + policy.bound(afterAttempt: current.failedProbes + 1)
            state.outage = current
            guard unreachable && current.failedProbes >= probes else { return .stillPaused }
            state.out = true
            return .givesUp(after: now - current.since)
        }
    }

    /// Whether the server takes uploads now: workers may claim ahead for it.
    package var isAnswering: Bool { state.withLock { $0.outage == nil && !$0.out } }

    /// Whether the server is out for the rest of the run.
    package var isOut: Bool { state.withLock { $0.out } }

    /// The server answered well (a transcript, or a refusal of the file itself, which says
    /// it works). True when that ended an outage.
    package func answered() -> Bool {
        state.withLock { state in
            state.failuresInARow = 0
            state.answeredOnce = true
            defer { state.outage = nil }
            return state.outage != nil && !state.out
        }
    }

    /// Takes the server out for the rest of the run (its key was refused). True the first time.
    package func drop() -> Bool {
        state.withLock { state in
            defer { state.out = true }
            return !state.out
        }
    }

    /// `worker`'s probe turn ended without reaching the server either way (nothing to
    /// claim, an unreadable file): the next worker may probe at once.
    package func endTurn(worker: Int) {
        state.withLock { state in
            if state.outage?.prober == worker { state.outage?.prober = nil }
        }
    }
}
