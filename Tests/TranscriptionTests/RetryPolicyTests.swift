import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(base: 0.5, cap: 8, longestServerWait: 60)

    @Test func boundDoublesUpToTheCap() {
        #expect((1...7).map { policy.bound(afterAttempt: $0) } == [0.5, 1, 2, 4, 8, 8, 8])
        #expect(policy.bound(afterAttempt: 500) == 8)
    }

    @Test func fullJitterSpansZeroToTheBound() {
        #expect(policy.delay(afterAttempt: 3, serverWait: nil, unitRandom: { 0 }) == 0)
        #expect(policy.delay(afterAttempt: 3, serverWait: nil, unitRandom: { 0.5 }) == 1)
        #expect(policy.delay(afterAttempt: 3, serverWait: nil, unitRandom: { 0.999 }) < 2)
        for _ in 0..<200 {
            let delay = policy.delay(afterAttempt: 4, serverWait: nil)
            #expect(delay >= 0 && delay < 4)
        }
    }

    @Test func neverRetriesSoonerThanTheServerAsked() {
        #expect(policy.delay(afterAttempt: 1, serverWait: 3, unitRandom: { 0.9 }) == 3)
        // A longer jittered bound still wins over a short server wait.
        #expect(policy.delay(afterAttempt: 6, serverWait: 0.1, unitRandom: { 0.5 }) == 4)
        // An absurd wait is clamped rather than sleeping for an hour.
        #expect(policy.delay(afterAttempt: 1, serverWait: 3600, unitRandom: { 0 }) == 60)
    }

    @Test func readsRetryAfterHeaders() {
        #expect(RetryPolicy.serverWait(headers: ["retry-after": "2"]) == 2)
        #expect(RetryPolicy.serverWait(headers: ["retry-after-ms": "250"]) == 0.25)
        #expect(RetryPolicy.serverWait(headers: ["retry-after": "7", "retry-after-ms": "1500"]) == 1.5)
        #expect(RetryPolicy.serverWait(headers: [:]) == nil)
        #expect(RetryPolicy.serverWait(headers: ["retry-after": "soon"]) == nil)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let wait = RetryPolicy.serverWait(headers: ["retry-after": "Tue, 14 Nov 2023 22:13:50 GMT"], now: now)
        #expect(wait == 30)
    }
}
