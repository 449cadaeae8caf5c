import Foundation
import VoiceJournalTranscription

/// One server of a run's pool: where uploads go, how many at once, and how much it is
/// preferred. A run with one endpoint behaves as a pool of one.
public struct PoolEndpoint: Sendable {
    /// How the endpoint is shown: its base URL, credentials hidden.
    public let name: String
    public let client: WhisperClient
    /// Uploads at once: one worker, each with its own kept-alive connection, per upload.
    public let workers: Int
    /// Higher numbers are used first; a lower one takes work only while every higher one is
    /// busy or out.
    public let priority: Int
    /// The model this server is asked for; nil: the run's.
    public let model: String?
    /// The environment variable its key came from, for messages (never the key).
    public let keyVariable: String?

    public init(client: WhisperClient, workers: Int, priority: Int = 0, model: String? = nil, keyVariable: String? = nil) {
        name = client.configuration.shownBaseURL
        self.client = client
        self.workers = max(1, workers)
        self.priority = priority
        self.model = model
        self.keyVariable = keyVariable
    }

    /// How many workers each endpoint gets when `total` caps the run's uploads at once
    /// (`--jobs`): the endpoints in order of preference (highest priority first) take their
    /// full concurrency until the cap is reached; an endpoint left with none sits the run
    /// out. Without a cap every endpoint gets its own concurrency.
    public static func workers(for concurrencies: [(concurrency: Int, priority: Int)], cappedAt total: Int?) -> [Int] {
        guard var left = total else { return concurrencies.map { max(1, $0.concurrency) } }
        var result = Array(repeating: 0, count: concurrencies.count)
        let order = concurrencies.indices.sorted { (concurrencies[$0].priority, $1) > (concurrencies[$1].priority, $0) }
        for index in order {
            let share = min(max(1, concurrencies[index].concurrency), left)
            result[index] = share
            left -= share
        }
        return result
    }
}

/// What one endpoint did in a run, for the summary and `--json`.
public struct EndpointFigures: Sendable, Equatable, Codable {
    /// What became of the endpoint by the end of the run.
    public enum State: String, Sendable, Codable {
        /// It took uploads until the end (or until there were none).
        case up
        /// Out for a cool-down when the run ended (it kept failing or could not be reached).
        case coolingDown = "cooling-down"
        /// Left out for the rest of the run: its key was refused, or it stayed out of reach.
        case dropped
    }

    public var endpoint: String
    public var workers: Int
    /// Uploads it transcribed (a chunk of a long file counts as one).
    public var files = 0
    /// The audio in those uploads, in seconds.
    public var audioSeconds = 0.0
    /// Uploads that failed on it, whatever the reason: errors, timeouts, no answer, empty
    /// answers. The file was retried (here or elsewhere); a file that failed for good is
    /// counted in the run's `failed`, not here.
    public var failures = 0
    /// Answers with no text for audio that holds speech (counted in `failures` too): a
    /// server doing that is suspect.
    public var emptyAnswers = 0
    /// The median time of its successful uploads, in seconds; nil before the first.
    public var medianLatency: Double?
    public var state = State.up
    /// Why it was dropped or is cooling down (no secret in it).
    public var problem: String?

    public init(endpoint: String, workers: Int) {
        self.endpoint = endpoint
        self.workers = workers
    }
}
