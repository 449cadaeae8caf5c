import Foundation
import Synchronization
import VoiceJournalTranscription

/// One endpoint during a run: its circuit breaker, how many of its workers are uploading or
/// still there (for the preference of higher-priority endpoints), and its figures.
final class RunEndpoint: Sendable {
    private let endpoint: PoolEndpoint
    let watch: EndpointWatch
    private struct Slots {
        var live: Int
        /// When each busy worker's upload began (system uptime), by worker.
        var uploadsSince: [Int: TimeInterval] = [:]
        var busy: Int { uploadsSince.count }
    }
    private struct Tally {
        var figures: EndpointFigures
        var latencies: [Double] = []
        /// A moving average of recent upload times: what the next one will likely take.
        var typicalLatency: Double?
    }
    private let slots: Mutex<Slots>
    private let tally: Mutex<Tally>
    /// Why the server cannot translate, once it said so in this run (nil: not known to refuse).
    private let translationRefusal = Mutex<String?>(nil)

    init(_ endpoint: PoolEndpoint, watch: EndpointWatch) {
        self.endpoint = endpoint
        self.watch = watch
        slots = Mutex(Slots(live: endpoint.workers))
        tally = Mutex(Tally(figures: EndpointFigures(endpoint: endpoint.name, workers: endpoint.workers)))
    }

    var name: String { endpoint.name }
    /// The server's client, the model it is asked for (nil: the run's), and the variable its key comes from.
    var client: WhisperClient { endpoint.client }
    var model: String? { endpoint.model }
    var keyVariable: String? { endpoint.keyVariable }
    /// Its preference (higher first) and its number of workers.
    var priority: Int { endpoint.priority }
    var workers: Int { endpoint.workers }

    /// Why this server cannot translate, when it said so earlier in the run: no translation is
    /// asked of it again until the run ends.
    var refusedTranslation: String? { translationRefusal.withLock { $0 } }

    /// The server refused a translation in a way no other file would change (a 4xx for audio
    /// it had just transcribed); true when this is the first such refusal of the run.
    func refusesTranslation(because note: String) -> Bool {
        translationRefusal.withLock { refusal in
            guard refusal == nil else { return false }
            refusal = note
            return true
        }
    }

    /// A worker of this server took a job / is done with it.
    func beganUpload(worker: Int) { slots.withLock { $0.uploadsSince[worker] = ProcessInfo.processInfo.systemUptime } }
    func endedUpload(worker: Int) { slots.withLock { _ = $0.uploadsSince.removeValue(forKey: worker) } }

    /// A worker of this server ended (the run is over for it).
    func workerEnded() { slots.withLock { $0.live -= 1 } }

    /// Workers that could take a job right now: none while the server is out.
    var freeSlots: Int {
        guard watch.isAnswering else { return 0 }
        return slots.withLock { max(0, $0.live - $0.busy) }
    }

    /// An upload came back with a transcript after `latency` seconds.
    func transcribed(audioSeconds: Double, latency: Double) {
        tally.withLock { tally in
            tally.figures.files += 1
            tally.figures.audioSeconds += audioSeconds
            tally.latencies.append(latency)
            tally.typicalLatency = tally.typicalLatency.map { 0.8 * $0 + 0.2 * latency } ?? latency
        }
    }

    /// What an upload to this server takes these days; nil before the first one came back.
    var typicalLatency: Double? { tally.withLock { $0.typicalLatency } }

    /// What the next upload will likely take: the typical time once one came back; before
    /// that, how long the oldest upload under way has taken so far (a slow server's first
    /// upload says it is slow long before it comes back). Once uploads are known, one that
    /// runs long is taken for a long file, not a slow server. Nil while nothing is known.
    var expectedLatency: Double? {
        if let typical = typicalLatency { return typical }
        let now = ProcessInfo.processInfo.systemUptime
        return slots.withLock { $0.uploadsSince.values.min() }.map { now - $0 }
    }

    /// An upload's answer did not come within its deadline, after `seconds`: the server is at
    /// least that slow now, which keeps it from the last jobs of a pool once it is back.
    func missedDeadline(after seconds: Double) {
        tally.withLock { tally in tally.typicalLatency = max(tally.typicalLatency ?? 0, seconds) }
    }

    /// An upload failed on this server.
    func uploadFailed() { tally.withLock { $0.figures.failures += 1 } }

    /// The server answered with no text for audio that holds speech (a failed upload too).
    func answeredEmpty() {
        tally.withLock { tally in
            tally.figures.failures += 1
            tally.figures.emptyAnswers += 1
        }
    }

    /// Why the server went out (kept for the summary; no secret in it).
    func noteProblem(_ message: String) { tally.withLock { $0.figures.problem = message } }

    /// The figures as the run ends.
    var figuresAtEnd: EndpointFigures {
        let state: EndpointFigures.State = watch.isOut ? .dropped : watch.isAnswering ? .up : .coolingDown
        return tally.withLock { tally in
            var figures = tally.figures
            figures.state = state
            if state == .up { figures.problem = nil }
            figures.medianLatency = Self.median(tally.latencies)
            return figures
        }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Run {
    /// Whether a worker of `server` should leave the next job to a more preferred server
    /// that has a worker free: lower priorities are overflow.
    func prefersOthers(over server: Int) -> Bool {
        let priority = servers[server].priority
        return servers.contains { $0.priority > priority && $0.freeSlots > 0 }
    }

    /// How many due jobs must be left for a worker of `server` to claim one: the jobs the
    /// faster servers that take uploads now get through in the time this one takes for one
    /// (their workers over their typical upload time, times this one's). Below that, the
    /// faster ones finish the rest sooner than this server would finish one more: the run
    /// ends when its fastest servers do, not after a slow one's last upload. The fastest
    /// server always claims (0), as does every server of a pool of one or while the upload
    /// times are not known yet. Only servers of this one's priority or higher count.
    func tailMinimum(for server: Int) -> Int {
        guard servers.count > 1, let own = servers[server].expectedLatency, own > 0 else { return 0 }
        var fasterPerSecond = 0.0
        let priority = servers[server].priority
        // Only servers that take work as readily: an overflow server (lower priority) leaves
        // jobs to this one while it has room, so counting it would leave them to no one.
        for (index, other) in servers.enumerated()
        where index != server && other.watch.isAnswering && other.priority >= priority {
            guard let latency = other.typicalLatency, latency > 0, latency < own else { continue }
            fasterPerSecond += Double(other.workers) / latency
        }
        let minimum = own * fasterPerSecond
        return minimum.isFinite ? Int(min(minimum, 1_000_000).rounded(.up)) : 0
    }

    /// Whether a server other than `server` takes uploads now.
    func anotherServerAnswers(than server: Int) -> Bool {
        servers.indices.contains { $0 != server && servers[$0].watch.isAnswering }
    }

    /// `server` is out for the rest of the run (its key was refused, or it stayed out of
    /// reach; its watch says so already): the others go on without it, or, when it was the
    /// last one left, the run stops for `stop`.
    func serverIsOut(_ server: Int, because message: String, stop: QueueRunner.StopReason) {
        let left = servers[server]
        left.noteProblem(message)
        if servers.allSatisfy(\.watch.isOut) {
            runner.requestStop(stop)
        } else {
            onEvent(.endpointDropped(endpoint: left.name, message: message))
        }
    }
}
