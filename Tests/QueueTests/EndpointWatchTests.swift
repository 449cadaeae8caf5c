import Testing
import VoiceJournalTranscription
@testable import VoiceJournalQueue

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
        #expect(watch.turn(worker: 1, now: now + 10) == .out, "a server given up is out for the rest of the run")
    }

    @Test func aProbeThatNeverReachedTheServerPassesTheTurnOn() {
        _ = watch.unreachable(worker: 0, now: 0)
        #expect(watch.turn(worker: 0, now: 1) == .probe)
        watch.endTurn(worker: 0) // e.g. its file could not be read
        #expect(watch.turn(worker: 1, now: 1) == .probe)
    }
}

/// The circuit breaker for a server that answers, but badly.
@Suite struct EndpointBreakerTests {
    let watch = EndpointWatch(policy: RetryPolicy(base: 1, cap: 4), probes: 2, tripAfter: 3)

    @Test func failuresInARowTakeTheServerOutAndAGoodAnswerInBetweenStartsTheCountAgain() {
        #expect(watch.serverFailed(worker: 0, now: 0) == .stillUp)
        #expect(watch.serverFailed(worker: 1, now: 0) == .stillUp)
        #expect(watch.answered() == false, "no outage was on")
        #expect(watch.serverFailed(worker: 0, now: 0) == .stillUp)
        #expect(watch.serverFailed(worker: 1, now: 0) == .stillUp)
        #expect(watch.isAnswering)
        #expect(watch.serverFailed(worker: 2, now: 0) == .paused)
        #expect(!watch.isAnswering)
        #expect(watch.turn(worker: 0, now: 0.5) == .wait(0.5))
    }

    @Test func theCoolDownGrowsWhileProbesFailAndAnAnsweringServerIsNeverGivenUp() {
        for worker in 0..<3 { _ = watch.serverFailed(worker: worker, now: 0) }
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<4 {
            let start = now
            while watch.turn(worker: 1, now: now) != .probe { now += 0.25 }
            waits.append(now - start)
            #expect(watch.serverFailed(worker: 1, now: now) == .stillPaused, "more probes than `probes`, never given up")
        }
        #expect(waits == [1, 2, 4, 4], "the cool-down doubles up to the policy's cap")
        #expect(watch.turn(worker: 0, now: now + 4) == .probe)
        #expect(watch.answered())
        #expect(watch.turn(worker: 0, now: now + 4) == .work)
    }

    @Test func aDroppedServerIsOutForTheRestOfTheRun() {
        #expect(watch.drop())
        #expect(!watch.drop(), "only the first drop is news")
        #expect(watch.turn(worker: 0, now: 0) == .out)
        #expect(watch.isOut && !watch.isAnswering)
        #expect(!watch.answered(), "an answer in flight does not bring it back")
        #expect(watch.turn(worker: 0, now: 100) == .out)
    }

    @Test func jobsCapFillsThePreferredEndpointsFirst() {
        let endpoints = [(concurrency: 4, priority: 0), (concurrency: 2, priority: 0), (concurrency: 8, priority: -1), (concurrency: 3, priority: 5)]
        #expect(PoolEndpoint.workers(for: endpoints, cappedAt: nil) == [4, 2, 8, 3])
        #expect(PoolEndpoint.workers(for: endpoints, cappedAt: 8) == [4, 1, 0, 3])
        #expect(PoolEndpoint.workers(for: endpoints, cappedAt: 2) == [0, 0, 0, 2])
        #expect(PoolEndpoint.workers(for: endpoints, cappedAt: 100) == [4, 2, 8, 3])
    }
}
