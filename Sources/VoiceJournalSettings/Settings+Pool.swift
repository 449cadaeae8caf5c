import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalTranscription

extension Settings {
    /// The servers a run uploads to. With `--base-url` or `$OPENAI_BASE_URL`, or no
    /// `[[endpoint]]` in the config file, that is one server with `jobs` workers (default:
    /// `jobs` of these settings). Otherwise it is every endpoint of the file, each with its
    /// own concurrency; `jobs` then caps the uploads at once, the preferred endpoints first.
    /// An endpoint that cannot work at all (no key set, not an http(s) URL) is left out, with
    /// its reason in `leftOut`; when none is left, that is an `invalidConfiguration` error.
    package func endpointPool(jobs: Int?, environment: [String: String], logger: Logger) throws(TranscriptionError) -> EndpointPool {
        guard endpoint.fromFile != nil else {
            let client = WhisperClient(configuration: try clientConfiguration(environment: environment), logger: logger)
            return EndpointPool(endpoints: [PoolEndpoint(client: client, workers: jobs ?? self.jobs.value, keyVariable: endpoint.keyVariable)])
        }
        // A model named on the command line or in the environment is for every endpoint;
        // otherwise each asks for its own (what that server runs), else the file's default.
        let modelGiven: Bool
        switch model.source {
        case .flag, .environment: modelGiven = true
        case .configFile, .runningServe, .builtIn: modelGiven = false
        }
        // The same server named twice is one endpoint: the first table counts.
        let (tables, repeats) = EndpointConfig.distinct(endpoints)
        let workers = PoolEndpoint.workers(for: tables.map { ($0.concurrency, $0.priority) }, cappedAt: jobs)
        var pool = EndpointPool(endpoints: [], leftOut: repeats.map { table in
            "endpoint \(table.shownBaseURL)\(table.line.map { " (line \($0))" } ?? "") repeats an earlier [[endpoint]] "
                + "for the same server and model; it is left out (one table per server: give it the concurrency of both)"
        })
        var firstProblem: TranscriptionError?
        for (table, count) in zip(tables, workers) where count > 0 {
            do {
                let client = WhisperClient(configuration: try table.clientConfiguration(environment: environment), logger: logger)
                let model = modelGiven ? nil : table.model ?? file?.defaults.model ?? TranscriptionOptions.defaultModel
                pool.endpoints.append(PoolEndpoint(client: client, workers: count, priority: table.priority, model: model,
                                                   keyVariable: table.apiKeyVariable))
            } catch {
                firstProblem = firstProblem ?? error
                pool.leftOut.append("endpoint \(table.shownBaseURL) is left out of this run: \(error.description)")
            }
        }
        if pool.endpoints.isEmpty, let firstProblem { throw Self.noUsableEndpoint(firstProblem, tables: tables.count) }
        return pool
    }

    /// No endpoint of the config file can be used: a configuration error (exit 3) naming the
    /// first endpoint's problem.
    package static func noUsableEndpoint(_ first: TranscriptionError, tables: Int) -> TranscriptionError {
        TranscriptionError(kind: .invalidConfiguration, description: tables == 1 ? first.description
                           : "no endpoint of the config file can be used; the first: \(first.description)")
    }

    /// How a run works: the model and hints, how uploads are planned, and two tunings from
    /// the environment that tests shorten: `VOICEJOURNAL_RETRY_BASE` (seconds of the first
    /// backoff) and `VOICEJOURNAL_LEASE_SECONDS` (how long a claim holds).
    package func runnerOptions(prompt: String?, trim: Bool, environment: [String: String]) -> QueueRunner.Options {
        var options = QueueRunner.Options(transcription: transcriptionOptions(prompt: prompt))
        options.fallbackLanguage = fallbackLanguage
        options.translate = translate.value
        options.upload = uploadSettings(trim: trim)
        if let base = environment["VOICEJOURNAL_RETRY_BASE"].flatMap(Double.init), base > 0 {
            options.retry.base = base
        }
        if let lease = environment["VOICEJOURNAL_LEASE_SECONDS"].flatMap(Double.init), lease > 0 {
            options.lease = min(lease, JobQueue.longestLease)
        }
        return options
    }
}
