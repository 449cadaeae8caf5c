import Foundation

/// When to try a failed upload again: capped exponential backoff with full jitter, never
/// sooner than the server asked (`retry-after` / `retry-after-ms`).
///
/// Full jitter (a uniform wait between zero and the exponential bound) spreads out workers
/// that failed together, so they do not hit a recovering server in lockstep.
public struct RetryPolicy: Sendable, Equatable {
    /// The bound for the first retry, in seconds; it doubles with each attempt.
    public var base: Double
    /// The largest bound, in seconds.
    public var cap: Double
    /// The longest server-requested wait we honour, in seconds; a longer one is clamped so a
    /// run does not sleep for an hour on one header.
    public var longestServerWait: Double

    /// The defaults follow openai-python's spirit with more patience for a batch: 0.5 s doubling to 30 s.
    public init(base: Double = 0.5, cap: Double = 30, longestServerWait: Double = 120) {
        self.base = base
        self.cap = cap
        self.longestServerWait = longestServerWait
    }

    /// The exponential bound after `attempt` failed attempts (1 = the first failure).
    public func bound(afterAttempt attempt: Int) -> Double {
        let exponent = Double(max(0, attempt - 1))
        return min(cap, base * pow(2, min(exponent, 62)))
    }

    /// The wait before the next try, in seconds. `unitRandom` returns a value in 0..<1
    /// (injectable so tests can pin the jitter).
    public func delay(afterAttempt attempt: Int, serverWait: Double?,
                      unitRandom: () -> Double = { Double.random(in: 0..<1) }) -> Double {
        let jittered = bound(afterAttempt: attempt) * min(max(unitRandom(), 0), 1)
        guard let serverWait, serverWait > 0 else { return jittered }
        return max(min(serverWait, longestServerWait), jittered)
    }

    /// The wait a response asked for: `retry-after-ms` (milliseconds) wins over
    /// `retry-after` (seconds, or an HTTP date). Header names are lowercase.
    public static func serverWait(headers: [String: String], now: Date = Date()) -> Double? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms >= 0 {
            return ms / 1000
        }
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
