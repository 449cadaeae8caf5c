import ArgumentParser
import Audio
import Dispatch
import Foundation
import Logging
import Queue
import Settings
import Store
import Transcription

/// The flags `transcribe` and `queue run` share: which model and endpoint, and the hints.
/// Each one not given falls back to the environment, the config file, then the default
/// (`Settings` resolves them).
struct TranscriptionFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Model (default: $VOICEJOURNAL_MODEL, else the config file, else whisper-1).", valueName: "name"))
    var model: String?

    @Option(help: ArgumentHelp("Spoken language as an ISO-639-1 code, e.g. en, de (default: the config file's, else detected).", valueName: "code"))
    var language: String?

    @Option(help: ArgumentHelp("Text to prime the model with (names, spellings, style).", valueName: "text"))
    var prompt: String?

    @Option(help: ArgumentHelp("API base URL: this one server for the run (default: $OPENAI_BASE_URL, else the config file's endpoints as a pool, else https://api.openai.com/v1).", valueName: "url"))
    var baseURL: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest audio upload in bytes; bigger files are encoded or split (default: about 24 MB).", valueName: "bytes"))
    var maxRequestBytes: Int64?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Longest audio in one upload, in seconds; longer files are split at pauses (default: 600).", valueName: "seconds"))
    var maxChunkSeconds: Double?

    @Option(help: ArgumentHelp("Codec for audio that is encoded or split before upload: flac (lossless, the default), mp3 or opus (smaller).",
                               valueName: "codec"))
    var uploadCodec: UploadCodec?

    @Flag(help: "Send the silence before and after the speech too (it is left out of encoded uploads by default).")
    var noTrim = false

    func validate() throws {
        let bytes = UploadSettings.maxRequestBytesRange, seconds = UploadSettings.maxChunkSecondsRange
        if let maxRequestBytes, !bytes.contains(maxRequestBytes) {
            throw ValidationError("--max-request-bytes must be at least \(bytes.lowerBound) and at most \(bytes.upperBound) (4 GiB), not \(maxRequestBytes).")
        }
        if let maxChunkSeconds, !(maxChunkSeconds.isFinite && seconds.contains(maxChunkSeconds)) {
            throw ValidationError("--max-chunk-seconds must be at least \(Int(seconds.lowerBound)) and at most \(Int(seconds.upperBound)).")
        }
        if let language, !TranscriptionOptions.isLanguageCode(language) {
            throw ValidationError("--language takes a two-letter ISO-639-1 code such as en or de, not '\(language)'.")
        }
        if let model, model.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--model must name a model, e.g. whisper-1.")
        }
    }

    /// These options as settings flags, with the command's `--jobs` if it has one.
    func flags(jobs: Int? = nil) -> Settings.Flags {
        var flags = Settings.Flags()
        flags.model = model
        flags.language = language
        flags.baseURL = baseURL
        flags.maxRequestBytes = maxRequestBytes
        flags.maxChunkSeconds = maxChunkSeconds
        flags.uploadCodec = uploadCodec
        flags.jobs = jobs
        return flags
    }

    /// The endpoint and key; a missing key for a remote server is a `TranscriptionError` of
    /// kind `invalidConfiguration` (exit 3, by `ErrorReport`).
    func clientConfiguration(_ settings: Settings, environment: [String: String]) throws -> WhisperClient.Configuration {
        try settings.clientConfiguration(environment: environment)
    }

    /// The servers a run uploads to, and why each endpoint left out of it was.
    typealias Pool = (endpoints: [PoolEndpoint], leftOut: [String])

    /// The servers a run uploads to. With `--base-url` or `$OPENAI_BASE_URL`, or no
    /// `[[endpoint]]` in the config file, that is one server with `jobs` workers (default:
    /// `settings.jobs`). Otherwise it is every endpoint of the file, each with its own
    /// concurrency; `jobs` then caps the uploads at once, the preferred endpoints first. An
    /// endpoint that cannot work at all (no key set, not an http(s) URL) is left out, with
    /// its reason in `leftOut`; when none is left, that is a configuration error (exit 3).
    func endpoints(_ settings: Settings, jobs: Int?, environment: [String: String],
                   logger: Logger = Logger(label: "voicejournal.queue")) throws -> Pool {
        guard settings.endpoint.fromFile != nil else {
            let client = WhisperClient(configuration: try clientConfiguration(settings, environment: environment), logger: logger)
            return ([PoolEndpoint(client: client, workers: jobs ?? settings.jobs.value, keyVariable: settings.endpoint.keyVariable)], [])
        }
        // A model named on the command line or in the environment is for every endpoint;
        // otherwise each asks for its own (what that server runs), else the file's default.
        let modelGiven: Bool
        switch settings.model.source {
        case .flag, .environment: modelGiven = true
        case .configFile, .builtIn: modelGiven = false
        }
        // The same server named twice is one endpoint: the first table counts.
        let (tables, repeats) = EndpointConfig.distinct(settings.endpoints)
        let workers = PoolEndpoint.workers(for: tables.map { ($0.concurrency, $0.priority) }, cappedAt: jobs)
        var pool: [PoolEndpoint] = []
        var leftOut: [String] = repeats.map { table in
            "endpoint \(table.shownBaseURL)\(table.line.map { " (line \($0))" } ?? "") repeats an earlier [[endpoint]] "
                + "for the same server and model; it is left out (one table per server: give it the concurrency of both)"
        }
        var firstProblem: TranscriptionError?
        for (table, count) in zip(tables, workers) where count > 0 {
            do {
                let client = WhisperClient(configuration: try table.clientConfiguration(environment: environment), logger: logger)
                let model = modelGiven ? nil : table.model ?? settings.file?.defaults.model ?? TranscriptionOptions.defaultModel
                pool.append(PoolEndpoint(client: client, workers: count, priority: table.priority, model: model,
                                         keyVariable: table.apiKeyVariable))
            } catch {
                firstProblem = firstProblem ?? error
                leftOut.append("endpoint \(table.shownBaseURL) is left out of this run: \(error.description)")
            }
        }
        if pool.isEmpty, let firstProblem {
            throw CLIError.configuration(tables.count == 1 ? firstProblem.description
                                         : "no endpoint of the config file can be used; the first: \(firstProblem.description)")
        }
        return (pool, leftOut)
    }

    /// A runner over `store` (see `endpoints` for `jobs`), warning about each endpoint left
    /// out unless told not to. `VOICEJOURNAL_RETRY_BASE` (seconds) and
    /// `VOICEJOURNAL_LEASE_SECONDS` tune backoff and leases (tests shorten them).
    func makeRunner(store: JournalStore, settings: Settings, jobs: Int?, environment: [String: String],
                    warnLeftOut: Bool = true) throws -> QueueRunner {
        makeRunner(store: store, settings: settings, pool: try endpoints(settings, jobs: jobs, environment: environment),
                   environment: environment, warnLeftOut: warnLeftOut)
    }

    /// The same over servers resolved already (`endpoints`): a command that checked them
    /// before opening the journal does not resolve them again.
    func makeRunner(store: JournalStore, settings: Settings, pool: Pool, environment: [String: String],
                    warnLeftOut: Bool = true) -> QueueRunner {
        let logger = Logger(label: "voicejournal.queue")
        if warnLeftOut { for line in pool.leftOut { printNotice("warning: " + line) } }
        var options = QueueRunner.Options(transcription: settings.transcriptionOptions(prompt: prompt))
        options.upload = settings.uploadSettings(trim: !noTrim)
        if let base = environment["VOICEJOURNAL_RETRY_BASE"].flatMap(Double.init), base > 0 {
            options.retry.base = base
        }
        if let lease = environment["VOICEJOURNAL_LEASE_SECONDS"].flatMap(Double.init), lease > 0 {
            options.lease = min(lease, JobQueue.longestLease)
        }
        return QueueRunner(queue: store.queue, endpoints: pool.endpoints, options: options, logger: logger)
    }
}

/// Runs a queue runner the way every command does: Ctrl-C or SIGTERM stops it (jobs go back
/// to the queue) and exits 130; what stopped the run otherwise (a refused key, a server out
/// of reach) is thrown as it is, for `ErrorReport` to give its status by its kind.
@discardableResult
func runQueue(_ runner: QueueRunner, until goal: QueueRunner.Goal, display: BatchProgressDisplay) async throws -> QueueRunner.Summary {
    let interrupts = SignalWatch { _ in runner.stop() }
    defer { interrupts.cancel() }
    display.start()
    do {
        let summary = try await runner.run(until: goal) { display.handle($0) }
        display.finish()
        return summary
    } catch let error as TranscriptionError {
        display.finish()
        throw error
    } catch is CancellationError {
        display.finish()
        throw CLIError.interrupted("interrupted; unfinished files stay queued: run `voicejournal queue run` (or the same command again) to finish them")
    }
}

extension UploadCodec: ExpressibleByArgument {}
