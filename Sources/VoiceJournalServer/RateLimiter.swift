import Foundation
import Synchronization

/// Token buckets, one per key (a client, a link): each holds up to `burst` requests and
/// refills at `count` per `seconds`. The table is bounded: past `maxKeys` it forgets the fullest
/// buckets first, so a flood from many addresses cannot grow it without end — nor empty it,
/// which would give the flooding address a fresh allowance.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: TimeInterval
        /// Refused since it last allowed one: later refusals are not news (for the log).
        var refusing = false
    }

    /// A refusal: how long until the key may send again, and whether it is the first since
    /// the key was last allowed one.
    struct Refusal: Equatable {
        let wait: TimeInterval
        let isFirst: Bool
    }

    let burst: Double
    let perSecond: Double
    /// The most keys kept.
    let maxKeys: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    init(_ count: Int, per seconds: TimeInterval, burst: Int, maxKeys: Int = 10_000) {
        self.burst = Double(max(1, burst))
        perSecond = Double(max(1, count)) / max(1, seconds)
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes one request from `key`'s bucket; nil when allowed, else the seconds until one is.
    func take(_ key: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> TimeInterval? {
        check(key, now: now)?.wait
    }

    /// Takes one request from `key`'s bucket; nil when allowed.
    func check(_ key: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Refusal? {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= maxKeys { forget(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else {
                defer { bucket.refusing = true }
                return Refusal(wait: (1 - bucket.tokens) / perSecond, isFirst: !bucket.refusing)
            }
            bucket.tokens -= 1
            bucket.refusing = false
            return nil
        }
    }

    /// Whether `key`'s next request would be refused, without taking one from its bucket.
    func isRefusing(_ key: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Bool {
        buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return false }
            return min(burst, bucket.tokens + max(0, now - bucket.updated) * perSecond) < 1
        }
    }

    /// The number of keys held (for tests).
    var count: Int { buckets.withLock { $0.count } }

    /// Makes room: first every bucket that has refilled (forgetting it changes nothing), then,
    /// if still full, the tenth of the keys whose buckets are fullest — the ones that lose least
    /// by starting again — so an address that used its allowance up stays limited.
    private func forget(_ buckets: inout [String: Bucket], now: TimeInterval) {
        let refillTime = burst / perSecond
        buckets = buckets.filter { now - $0.value.updated < refillTime }
        guard buckets.count >= maxKeys else { return }
        func projected(_ bucket: Bucket) -> Double { min(burst, bucket.tokens + (now - bucket.updated) * perSecond) }
        let fullest = buckets.sorted { projected($0.value) > projected($1.value) }.prefix(max(1, maxKeys / 10))
        for (key, _) in fullest { buckets[key] = nil }
    }
}
