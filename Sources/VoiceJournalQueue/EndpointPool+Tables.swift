import Foundation
import Logging
import VoiceJournalTranscription

extension EndpointPool {
    /// One server (named on the command line or in the environment, else OpenAI's) with
    /// `workers` workers.
    package static func single(_ configuration: WhisperClient.Configuration, workers: Int, keyVariable: String?,
                              logger: Logger) -> EndpointPool {
        EndpointPool(endpoints: [PoolEndpoint(client: WhisperClient(configuration: configuration, logger: logger), workers: workers,
                                              keyVariable: keyVariable)])
    }

    /// Every endpoint of the config file, each with its own concurrency; `jobs` then caps the
    /// uploads at once, the preferred endpoints first. Each asks for `model` when one is
    /// named for the run, else for its own (what that server runs), else `fileModel`.
    /// An endpoint that cannot work at all (no key set, not an http(s) URL) is left out, with
    /// its reason in `leftOut`; when none is left, that is an `invalidConfiguration` error.
    package static func of(_ endpoints: [EndpointConfig], cappedAt jobs: Int?, modelNamedForRun: Bool, fileModel: String?,
                          environment: [String: String], logger: Logger) throws(TranscriptionError) -> EndpointPool {
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
                let model = modelNamedForRun ? nil : table.model ?? fileModel ?? TranscriptionOptions.defaultModel
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
}
