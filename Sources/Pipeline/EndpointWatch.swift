import Foundation
import Synchronization
import Transcription

/// Whether a run's server can be reached. When an upload finds it unreachable (connection
/// refused, unknown host, no connection within the connect timeout) every file would fail
/// the same way: the whole run pauses instead of each worker retrying its own file. One
/// worker at a time then probes with the next upload, after the retry policy's backoff;
/// the first answer of any kind resumes everyone, and after `probes` failed probes the run
/// gives up. Jobs are handed back untouched meanwhile, so no attempt is spent on an outage.
final class EndpointWatch: Sendable {
    /// What a worker does next.
    enum Turn: Equatable {
        /// Work as usual.
        case work
        /// Claim a job and upload it: it is the probe.
        case probe
        /// The run is paused: wait this long, then ask again.
        case wait(TimeInterval)
    }

    /// What an unreachable upload means for the run.
    enum Verdict: Equatable {
        /// The first one: the run pauses now (tell the user, once).
        case paused
        /// The run was already paused; it keeps probing.
        case stillPaused
        /// The last probe failed too: give up after this many seconds of outage.
        case givesUp(after: TimeInterval)
    }

    private struct Outage {
        var since: TimeInterval
        var failedProbes = 0
        var nextProbe: TimeInterval
        /// The worker whose upload is the probe now.
        var prober: Int?
    }

    private let outage = Mutex<Outage?>(nil)
    private let policy: RetryPolicy
    private let probes: Int

    init(policy: RetryPolicy, probes: Int) {
        self.policy = policy
        self.probes = max(1, probes)
    }

    /// How long a pause lasts at most: the backoff before each probe, added up.
    var patience: TimeInterval {
        (1...probes).reduce(0) { $0 + policy.bound(afterAttempt: $1) }
    }

    /// Whether `worker` may work, should probe, or waits.
    func turn(worker: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Turn {
        outage.withLock { outage in
            guard let current = outage else { return .work }
            if current.prober == nil && now >= current.nextProbe {
                outage?.prober = worker
                return .probe
            }
            return .wait(current.prober == nil ? current.nextProbe - now : policy.base)
        }
    }

    /// `worker`'s upload could not reach the server.
    func unreachable(worker: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Verdict {
        outage.withLock { outage in
            guard var current = outage else {
                outage = Outage(since: now, nextProbe: now + policy.bound(afterAttempt: 1))
                return .paused
            }
            // Uploads that were under way when the pause began fail too; only probes count.
            guard current.prober == worker else { return .stillPaused }
            current.failedProbes += 1
            current.prober = nil
            current.nextProbe = now + policy.bound(afterAttempt: current.failedProbes + 1)
            outage = current
            return current.failedProbes >= probes ? .givesUp(after: now - current.since) : .stillPaused
        }
    }

    /// Whether no pause is on: workers may claim ahead.
    var isAnswering: Bool { outage.withLock { $0 == nil } }

    /// The server answered (success or any HTTP status). True when that ended a pause.
    func answered() -> Bool {
        outage.withLock { outage in
            defer { outage = nil }
            return outage != nil
        }
    }

    /// `worker`'s probe turn ended without reaching the server either way (nothing to
    /// claim, an unreadable file): the next worker may probe at once.
    func endTurn(worker: Int) {
        outage.withLock { outage in
            if outage?.prober == worker { outage?.prober = nil }
        }
    }
}
