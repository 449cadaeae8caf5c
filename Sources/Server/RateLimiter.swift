import Foundation
import Synchronization

/// Token buckets, one per key (a client address, a link token): each holds up to `burst`
/// requests and refills at `count` per `seconds`. Keys unseen for a while are forgotten so the table
/// cannot grow without bound.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: TimeInterval
    }

    let burst: Double
    let perSecond: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    /// The most keys kept; past it, the full (idle) buckets are dropped.
    private let maxKeys = 10_000

    init(_ count: Int, per seconds: TimeInterval, burst: Int) {
        self.burst = Double(max(1, burst))
        perSecond = Double(max(1, count)) / max(1, seconds)
    }

    /// Takes one request from `key`'s bucket; nil when allowed, else the seconds until one is.
    func take(_ key: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> TimeInterval? {
        buckets.withLock { buckets in
            if buckets.count >= maxKeys { forgetIdle(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
            bucket.tokens -= 1
            return nil
        }
    }

    private func forgetIdle(_ buckets: inout [String: Bucket], now: TimeInterval) {
        let refillTime = burst / perSecond
        buckets = buckets.filter { now - $0.value.updated < refillTime }
        // Still full of active keys: start again rather than grow (a flood from many addresses).
        if buckets.count >= maxKeys { buckets.removeAll() }
    }
}
