import Foundation
@testable import VoiceJournalServer
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
        #expect(limiter.count <= limiter.maxKeys)
    }

    @Test func theFirstRefusalOfARunIsNewsAndTheRestAreNot() {
        let limiter = RateLimiter(1, per: 60, burst: 1)
        #expect(limiter.check("a", now: 0) == nil)
        #expect(limiter.check("a", now: 1)?.isFirst == true)
        #expect(limiter.check("a", now: 2)?.isFirst == false)
        // The wait is the bucket's real refill time, not a fixed minute.
        #expect(abs((limiter.check("a", now: 30)?.wait ?? 0) - 30) < 0.001)
        #expect(limiter.check("a", now: 61) == nil)
        #expect(limiter.check("a", now: 62)?.isFirst == true)
    }

    @Test(arguments: [
        // (peer, X-Forwarded-For values, trusted proxies, the client)
        ("203.0.113.7", ["198.51.100.2"], [], "203.0.113.7"),                                  // not a proxy: the header is ignored
        ("127.0.0.1", ["198.51.100.2"], ["127.0.0.1"], "198.51.100.2"),
        ("127.0.0.1", ["6.6.6.6, 198.51.100.2"], ["127.0.0.1"], "198.51.100.2"),               // the client's own claim is left of ours
        ("127.0.0.1", ["6.6.6.6", "198.51.100.2, 10.0.0.5"], ["127.0.0.1", "10.0.0.5"], "198.51.100.2"),  // two proxies
        ("127.0.0.1", [], ["127.0.0.1"], "127.0.0.1"),                                          // no header: the proxy itself
        ("127.0.0.1", ["unknown"], ["127.0.0.1"], "127.0.0.1"),
        ("::ffff:127.0.0.1", ["[2001:db8::1]:443"], ["127.0.0.1"], "2001:db8::1"),             // a dual-stack peer, a bracketed hop
        ("127.0.0.1", ["198.51.100.2:51234"], ["127.0.0.1"], "198.51.100.2"),
    ])
    func theClientIsTheRightMostAddressNoTrustedProxyWrote(peer: String, forwarded: [String], trusted: [String], client: String) {
        let resolved = ClientAddress.resolve(peer: peer, forwardedFor: forwarded, trusted: Set(trusted.compactMap(ClientAddress.canonical)))
        #expect(resolved.text == client)
    }

    @Test func anIPv6ClientIsLimitedByItsSlash64() {
        let one = ClientAddress(text: "2001:db8:1:2:aaaa::1"), other = ClientAddress(text: "2001:db8:1:2:bbbb::9")
        #expect(one.limitKey == other.limitKey)
        #expect(one.limitKey != ClientAddress(text: "2001:db8:1:3::1").limitKey)
        #expect(ClientAddress(text: "203.0.113.7").limitKey == "203.0.113.7")
    }
}
