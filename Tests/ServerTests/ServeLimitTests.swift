import Foundation
@testable import Server
import Testing

/// The rate limiter's table under a flood of addresses: bounded, and an address that used up
/// its allowance stays limited however many others arrive.
@Suite struct ServeLimitTests {
    @Test func tenThousandAddressesDoNotEmptyTheTable() {
        let limiter = RateLimiter(5, per: 60, burst: 5)
        for _ in 0..<5 { #expect(limiter.take("attacker", now: 0) == nil) }
        #expect(limiter.take("attacker", now: 0) != nil)
        // An IPv6 attacker has as many addresses as it likes.
        for index in 0..<30_000 { _ = limiter.take("2001:db8::\(index)", now: 1 + Double(index) / 30_000) }
        #expect(limiter.take("attacker", now: 2) != nil, "the exhausted bucket was forgotten")
    }
}
