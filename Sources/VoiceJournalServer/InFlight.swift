import Synchronization

/// One holder at a time per key: a second send of a take (the same link and Idempotency-Key)
/// waits for the first to be stored or refused, then finds its answer, instead of racing it
/// into the duplicate-audio rule.
final class KeyedTurns: Sendable {
    private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `work` once no other call for `key` is running; calls for one key run in arrival order.
    func one<T: Sendable>(_ key: String, _ work: () async -> T) async -> T {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = waiting.withLock { waiting -> Bool in
                guard waiting[key] != nil else {
                    waiting[key] = []
                    return true
                }
                waiting[key, default: []].append(turn)
                return false
            }
            if now { turn.resume() }
        }
        let result = await work()
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var queue = waiting[key], !queue.isEmpty else {
                waiting[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiting[key] = queue
            return next
        }
        next?.resume()
        return result
    }
}

/// The bytes of uploads under way, per link: what one link may hold on the disk at once is
/// bounded, however many requests it sends in parallel.
final class LinkBudget: Sendable {
    /// The most bytes one link's uploads may hold in `incoming/` together.
    let limit: Int64
    private let held = Mutex<[Int64: Int64]>([:])

    init(limit: Int64) { self.limit = limit }

    /// Reserves `bytes` for `link`; false (nothing reserved) when that would pass the limit.
    func reserve(_ bytes: Int64, for link: Int64) -> Bool {
        held.withLock { held in
            let now = held[link, default: 0]
            guard bytes >= 0, now + bytes <= limit else { return false }
            held[link] = now + bytes
            return true
        }
    }

    /// Gives back what `reserve` took.
    func release(_ bytes: Int64, for link: Int64) {
        held.withLock { held in
            let left = held[link, default: 0] - bytes
            held[link] = left > 0 ? left : nil
        }
    }
}
