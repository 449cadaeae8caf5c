import Foundation
import VoiceJournalAudio
import Logging
import VoiceJournalMail
import VoiceJournalQueue
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalTranscription

extension SettingRules {
    /// voicejournal's own: the defaults, codecs, limits and checks of its modules.
    package static let voiceJournal = SettingRules(
        defaultJournal: Journal.defaultName, defaultModel: TranscriptionOptions.defaultModel,
        defaultBaseURL: WhisperClient.Configuration.openAIBaseURL, uploadCodecs: UploadCodec.allCases.map(\.rawValue),
        defaultUploadCodec: UploadCodec.flac.rawValue, defaultMaxChunkSeconds: UploadPlan.defaultMaxChunkSeconds,
        defaultMaxRequestBytes: UploadPlan.defaultMaxRequestBytes, maxChunkSecondsRange: UploadSettings.maxChunkSecondsRange,
        maxRequestBytesRange: UploadSettings.maxRequestBytesRange, isHTTPURL: WhisperClient.Configuration.isHTTPURL,
        isLanguageCode: TranscriptionOptions.isLanguageCode,
        languageMeant: { text in SpokenLanguage.code(for: text).map { ($0, SpokenLanguage.displayName(of: $0)) } },
        mailAddressProblem: MailAddress.problem,
        mailURLProblem: { url, plainLoopback in
            if case .failure(let problem) = MailSettings.checkURL(url, allowPlainLoopback: plainLoopback) { return problem.message }
            return nil
        })
}

/// A run's pieces from the settings, as the command makes them: the endpoint pool and the
/// runner's options are built in `Queue` from the settings' plain values.
extension Settings {
    /// The settings as the command resolves them, by voicejournal's rules: the config file read
    /// as a control file (`flags.config`, else the default place), the home `flags.home` names,
    /// and, unless `followingServe` is false (`serve` itself), the record of a serve running on it.
    package static func load(flags: Flags, environment: [String: String], followingServe: Bool = true) throws(ConfigError) -> Settings {
        let home = DataHome.resolve(flag: flags.home, environment: environment)
        // A --public-url given wins anyway: no need to look.
        var serve: RunningServe?, notices: [String] = []
        if followingServe && flags.publicURL == nil {
            switch VoiceJournalStore.RunningServe.look(in: home) {
            case .none: break
            case .running(let found): serve = RunningServe(pid: found.pid, links: found.links)
            case .ignored(let why): notices.append(why + "; links do not follow a running serve")
            }
        }
        return try load(flags: flags, environment: environment, rules: .voiceJournal, home: home.url.path, runningServe: serve,
                        notices: notices) { path, limit in
            switch ControlFile.read(path, limit: limit, followingLinks: true) {
            case .success(let data): .data(data)
            case .failure(.missing): .missing
            case .failure(.unusable(let why)): .unusable(why)
            }
        }
    }

    /// The client configuration of the endpoint, its key read from the variable it names;
    /// a missing key for a remote server is an error (exit 3).
    package func clientConfiguration(environment: [String: String]) throws(TranscriptionError) -> WhisperClient.Configuration {
        if let table = endpoint.fromFile { return try EndpointConfig(table).clientConfiguration(environment: environment) }
        return try WhisperClient.Configuration.resolve(baseURL: endpoint.baseURL.value, keyVariable: endpoint.keyVariable,
                                                       environment: environment, origin: "--base-url / OPENAI_BASE_URL")
    }

    /// The servers a run uploads to. With `--base-url` or `$OPENAI_BASE_URL`, or no
    /// `[[endpoint]]` in the config file, that is one server with `jobs` workers (default:
    /// `jobs` of these settings); otherwise every usable endpoint of the file.
    package func endpointPool(jobs: Int?, environment: [String: String], logger: Logger) throws(TranscriptionError) -> EndpointPool {
        guard endpoint.fromFile != nil else {
            return .single(try clientConfiguration(environment: environment), workers: jobs ?? self.jobs.value,
                           keyVariable: endpoint.keyVariable, logger: logger)
        }
        return try .of(endpoints.map(EndpointConfig.init), cappedAt: jobs, modelNamedForRun: modelNamedForRun,
                       fileModel: file?.defaults.model, environment: environment, logger: logger)
    }

    /// How a run works (`prompt` has no setting of its own).
    package func runnerOptions(prompt: String?, trim: Bool, environment: [String: String]) -> QueueRunner.Options {
        .run(model: model.value, language: runLanguage, fallbackLanguage: fallbackLanguage, prompt: prompt, translate: translate.value,
             upload: UploadSettings(maxRequestBytes: maxRequestBytes.value, maxChunkSeconds: maxChunkSeconds.value,
                                    codec: UploadCodec(rawValue: uploadCodec.value) ?? .flac, trim: trim),
             environment: environment)
    }

    /// A queue runner over `queue` working as these settings and the run's `prompt` and `trim`
    /// say: on `pool`, else on the servers for `jobs` (`endpointPool`), each endpoint those
    /// leave out said to `leftOut`.
    package func queueRunner(_ queue: JobQueue, jobs: Int?, pool: EndpointPool?, prompt: String?, trim: Bool,
                             environment: [String: String], logger: Logger, leftOut: (String) -> Void) throws -> QueueRunner {
        let chosen: EndpointPool
        if let pool {
            chosen = pool
        } else {
            chosen = try endpointPool(jobs: jobs, environment: environment, logger: logger)
            chosen.leftOut.forEach(leftOut)
        }
        return QueueRunner(queue: queue, endpoints: chosen.endpoints,
                           options: runnerOptions(prompt: prompt, trim: trim, environment: environment), logger: logger)
    }
}

extension EndpointConfig {
    /// The config file's table as the client takes it.
    package init(_ table: EndpointTable) {
        self.init(baseURL: table.baseURL, model: table.model, apiKeyVariable: table.apiKeyVariable, concurrency: table.concurrency,
                  priority: table.priority, line: table.line)
    }
}
