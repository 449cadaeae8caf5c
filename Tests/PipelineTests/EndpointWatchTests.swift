import Testing
import Transcription
@testable import Pipeline

/// The pause for an unreachable server, on a clock the test sets.
@Suite struct EndpointWatchTests {
    let watch = EndpointWatch(policy: RetryPolicy(base: 1, cap: 4), probes: 3)

    @Test func oneOutageIsAnnouncedOnceAndOneWorkerProbesAtATime() {
        #expect(watch.turn(worker: 0, now: 0) == .work)
        #expect(watch.unreachable(worker: 0, now: 0) == .paused)
        // The others' uploads under way fail too: still the same outage.
        #expect(watch.unreachable(worker: 1, now: 0.1) == .stillPaused)
        #expect(watch.turn(worker: 1, now: 0.5) == .wait(0.5))
        #expect(watch.turn(worker: 1, now: 1) == .probe)
        #expect(watch.turn(worker: 2, now: 1) != .probe)
        #expect(watch.answered())
        #expect(watch.turn(worker: 2, now: 1.1) == .work)
        #expect(!watch.answered())
    }

    @Test func givesUpAfterItsProbesWithTheBackoffAddedUp() {
        #expect(watch.patience == 1 + 2 + 4)
        _ = watch.unreachable(worker: 0, now: 0)
        var now = 0.0
        var verdict = EndpointWatch.Verdict.paused
        for _ in 0..<3 {
            while watch.turn(worker: 1, now: now) != .probe { now += 0.25 }
            verdict = watch.unreachable(worker: 1, now: now)
        }
        #expect(verdict == .givesUp(after: 7))
    }

    @Test func aProbeThatNeverReachedTheServerPassesTheTurnOn() {
        _ = watch.unreachable(worker: 0, now: 0)
        #expect(watch.turn(worker: 0, now: 1) == .probe)
        watch.endTurn(worker: 0) // e.g. its file could not be read
        #expect(watch.turn(worker: 1, now: 1) == .probe)
    }
}
