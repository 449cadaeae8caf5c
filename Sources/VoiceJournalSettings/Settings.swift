import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

/// Where a setting's value came from.
package enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    /// A command-line option, e.g. `--model`.
    case flag(String)
    /// An environment variable, e.g. `VOICEJOURNAL_MODEL`.
    case environment(String)
    /// The config file at this path.
    case configFile(String)
    /// The `serve` running on the data home (its process id): links follow the server.
    case runningServe(pid: Int32)
    /// voicejournal's own default.
    case builtIn

    package var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let name): "environment \(name)"
        case .configFile(let path): "config file \(path)"
        case .runningServe(let pid): "running serve, pid \(pid)"
        case .builtIn: "default"
        }
    }
}

/// One setting's value and where it came from.
package struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
    package let value: Value
    package let source: SettingSource

    package init(_ value: Value, from source: SettingSource) {
        self.value = value
        self.source = source
    }
}

/// The effective settings of one command: each resolved in one place by the same rule —
/// command-line flag, then environment variable, then config file, then built-in default —
/// and each knowing where its value came from (for `config show`).
package struct Settings: Sendable {
    /// The values given on the command line; nil for each option not given.
    package struct Flags: Sendable {
        package var home: String?
        package var config: String?
        package var journal: String?
        package var device: String?
        package var rate: Int?
        package var model: String?
        package var language: String?
        package var baseURL: String?
        package var uploadCodec: UploadCodec?
        package var maxChunkSeconds: Double?
        package var maxRequestBytes: Int64?
        package var jobs: Int?
        package var publicURL: String?
        package var askedBy: String?
        /// `--translate` given (nil: not given; the flag only ever turns translation on).
        package var translate: Bool?

        package init() {}
    }

    /// The endpoint a run talks to now, and where its base URL came from.
    package struct Endpoint: Sendable {
        package let baseURL: Setting<String>
        /// The environment variable the key is read from; nil: no key.
        package let keyVariable: String?
        /// The config file's table, when the endpoint is the file's.
        package let fromFile: EndpointConfig?
    }

    /// The config file that was read, if one was found.
    package let file: ConfigFile?
    /// Where the config file is (or would be), and what said so.
    package let configPath: Setting<String>
    package let home: Setting<String>
    package let journal: Setting<String>
    package let device: Setting<String>
    package let rate: Setting<Int>
    package let model: Setting<String>
    /// nil: the server detects the language.
    package let language: Setting<String?>
    package let uploadCodec: Setting<UploadCodec>
    package let maxChunkSeconds: Setting<Double>
    package let maxRequestBytes: Setting<Int64>
    package let endpoint: Endpoint
    /// Uploads at a time: `--jobs`, else (a pool of the config file's endpoints) their
    /// concurrencies added up, else 4.
    package let jobs: Setting<Int>
    /// Where `serve` is reached from outside (a reverse proxy or tunnel): links are
    /// `<publicURL>/a/<token>`. A serve running on the home comes after the flag and the
    /// environment and before the config file: the links printed are the ones it answers.
    package let publicURL: Setting<String>
    /// The name the answer page shows as the one asking; nil: none.
    package let askedBy: Setting<String?>
    /// Whether every recording a run transcribes is translated to English as well (a person's
    /// or journal's own setting asks for it too).
    package let translate: Setting<Bool>

    /// What was found and set aside while resolving (a serve record that is not one, links
    /// that are no http(s) URL), one line each, for the user.
    package let notices: [String]

    /// The file's `[[endpoint]]` tables (empty without a file), for the pool.
    package var endpoints: [EndpointConfig] { file?.endpoints ?? [] }

    /// Built-in defaults.
    package static let defaultDevice = "default"
    package static let defaultRate = 16000
    package static let defaultJobs = 4
    /// Where `serve` listens by default, and so where links point unless told otherwise.
    package static let defaultPublicURL = "http://127.0.0.1:8787"
    /// The sample rates a capture may ask for, in Hz.
    package static let rates = 1000...768_000

    /// Reads the config file (`flags.config`, else the default place, where a missing file
    /// is no error) and, unless `followingServe` is false (`serve` itself), the record of a
    /// serve running on the home, and resolves every setting.
    package static func load(flags: Flags, environment: [String: String], followingServe: Bool = true) throws(ConfigError) -> Settings {
        let configPath: Setting<String>
        if let given = flags.config {
            configPath = Setting((given as NSString).expandingTildeInPath, from: .flag("--config"))
        } else {
            let xdg = environment["XDG_CONFIG_HOME"].map { !$0.isEmpty } ?? false
            configPath = Setting(ConfigFile.defaultURL(environment: environment).path,
                                 from: xdg ? .environment("XDG_CONFIG_HOME") : .builtIn)
        }
        let file = try ConfigFile.load(URL(fileURLWithPath: configPath.value), required: flags.config != nil)
        // A --public-url given wins anyway: no need to look.
        var serve: RunningServe?
        var notices: [String] = []
        if followingServe && flags.publicURL == nil {
            switch RunningServe.look(in: DataHome.resolve(flag: flags.home, environment: environment)) {
            case .none: break
            case .running(let found): serve = found
            case .ignored(let why): notices.append(why + "; links do not follow a running serve")
            }
        }
        return Settings(flags: flags, environment: environment, file: file, configPath: configPath, runningServe: serve,
                        notices: notices)
    }

    /// Resolves every setting from what was given; `runningServe` is the serve running on the
    /// home, if any.
    package init(flags: Flags, environment: [String: String], file: ConfigFile?, configPath: Setting<String>,
                runningServe: RunningServe? = nil, notices: [String] = []) {
        self.file = file
        var notices = notices
        self.configPath = configPath
        let resolver = Resolver(environment: environment, file: file)
        let defaults = file?.defaults ?? ConfigFile.Defaults()

        // DataHome.resolve has the home's own rule (the config file has no say in it, and
        // $XDG_DATA_HOME only moves the default); here it is only told where it came from.
        let homeValue = DataHome.resolve(flag: flags.home, environment: environment).url.path
        home = resolver.pick(flags.home.map { _ in homeValue }, "--home",
                             env: "VOICEJOURNAL_HOME", { _ in homeValue }, file: nil, default: homeValue)
        journal = resolver.pick(flags.journal, "--journal", file: defaults.journal, default: Journal.defaultName)
        device = resolver.pick(flags.device, "--device", file: defaults.device, default: Self.defaultDevice)
        rate = resolver.pick(flags.rate, "--rate", file: defaults.rate, default: Self.defaultRate)
        language = resolver.pickOptional(flags.language?.lowercased(), "--language", file: defaults.language)
        uploadCodec = resolver.pick(flags.uploadCodec, "--upload-codec", file: defaults.uploadCodec, default: .flac)
        maxChunkSeconds = resolver.pick(flags.maxChunkSeconds, "--max-chunk-seconds",
                                        file: defaults.maxChunkSeconds, default: UploadPlan.defaultMaxChunkSeconds)
        maxRequestBytes = resolver.pick(flags.maxRequestBytes, "--max-request-bytes",
                                        file: defaults.maxRequestBytes, default: UploadPlan.defaultMaxRequestBytes)

        // The endpoint: one named on the command line or in the environment wins over the
        // file's preferred one (the first of the highest priority), else OpenAI's.
        let preferred = EndpointConfig.preferred(file?.endpoints ?? []).first
        let baseURL = resolver.pick(flags.baseURL, "--base-url", env: "OPENAI_BASE_URL", { $0 },
                                    file: preferred?.baseURL, default: WhisperClient.Configuration.openAIBaseURL)
        let fromFile = baseURL.source == .configFile(file?.path ?? "") ? preferred : nil
        endpoint = Endpoint(baseURL: baseURL, keyVariable: fromFile == nil ? "OPENAI_API_KEY" : fromFile?.apiKeyVariable,
                            fromFile: fromFile)
        // The endpoint's own model before the file's default one: it is what that server runs.
        model = resolver.pick(flags.model, "--model", env: "VOICEJOURNAL_MODEL", { $0 },
                              file: fromFile?.model ?? defaults.model, default: TranscriptionOptions.defaultModel)
        let poolJobs = fromFile == nil ? nil : (file?.endpoints ?? []).reduce(0) { $0 + max(1, $1.concurrency) }
        jobs = resolver.pick(flags.jobs, "--jobs", file: poolJobs, default: Self.defaultJobs)
        let publicURL = resolver.pick(flags.publicURL.map(Self.trimmedURL), "--public-url", env: "VOICEJOURNAL_PUBLIC_URL",
                                      { Self.isPublicURL($0) ? Self.trimmedURL($0) : nil },
                                      file: defaults.publicURL, default: Self.defaultPublicURL)
        // A serve's record is data like the config file: its links are checked the same way,
        // and a record naming something else is passed over as a stale one is.
        let serve = runningServe.flatMap { Self.isPublicURL($0.links) ? $0 : nil }
        if let runningServe, serve == nil {
            notices.append("the record of the serve running on this home (pid \(runningServe.pid)) names links that are not "
                + "an http(s) URL of at most \(Self.longestPublicURL) characters; links do not follow it")
        }
        switch (publicURL.source, serve) {
        case (.configFile, let serve?), (.builtIn, let serve?):
            self.publicURL = Setting(Self.trimmedURL(serve.links), from: .runningServe(pid: serve.pid))
        default:
            self.publicURL = publicURL
        }
        self.notices = notices
        askedBy = resolver.pickOptional(flags.askedBy, "--asked-by", file: defaults.askedBy)
        translate = resolver.pick(flags.translate, "--translate", file: defaults.translate, default: false)
    }

    /// The longest public URL taken, in bytes: a link is for a person to open, and a
    /// 5 MB one is an attack on whatever shows it.
    package static let longestPublicURL = 2048

    /// Whether `text` can be the base of answer links: an http(s) URL with a host, of at most
    /// `longestPublicURL` bytes, without spaces or control characters.
    package static func isPublicURL(_ text: String) -> Bool {
        text.utf8.count <= longestPublicURL
            && !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
            && WhisperClient.Configuration.isHTTPURL(text)
    }

    /// A base URL without the trailing slash, so `<url>/a/<token>` has one slash.
    static func trimmedURL(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The link that answers an assignment: `<public URL>/a/<token>`.
    package func answerLink(token: String) -> String { "\(publicURL.value)/a/\(token)" }

    /// The client configuration of the endpoint, its key read from the variable it names;
    /// a missing key for a remote server is an error (exit 3).
    package func clientConfiguration(environment: [String: String]) throws(TranscriptionError) -> WhisperClient.Configuration {
        if let fromFile = endpoint.fromFile { return try fromFile.clientConfiguration(environment: environment) }
        return try WhisperClient.Configuration.resolve(baseURL: endpoint.baseURL.value, keyVariable: endpoint.keyVariable,
                                                       environment: environment, origin: "--base-url / OPENAI_BASE_URL")
    }

    /// The options every upload of a run uses (`prompt` has no setting of its own). The
    /// language is the run's only when given for it (`--language`): the config file's comes
    /// after a recording's person's or journal's (`fallbackLanguage`).
    package func transcriptionOptions(prompt: String?) -> TranscriptionOptions {
        TranscriptionOptions(model: model.value, language: fallbackLanguage == nil ? language.value : nil, prompt: prompt)
    }

    /// The config file's language, used for a recording whose person and journal name none.
    package var fallbackLanguage: String? {
        if case .configFile = language.source { return language.value }
        return nil
    }

    /// How a run's uploads are planned.
    package func uploadSettings(trim: Bool) -> UploadSettings {
        UploadSettings(maxRequestBytes: maxRequestBytes.value, maxChunkSeconds: maxChunkSeconds.value,
                       codec: uploadCodec.value, trim: trim)
    }
}

/// The one rule every setting follows: flag, environment, config file, default.
private struct Resolver {
    let environment: [String: String]
    let file: ConfigFile?

    func pick<Value: Sendable & Equatable>(_ flag: Value?, _ flagName: String, env: String? = nil, _ parse: (String) -> Value? = { _ in nil },
                     file value: Value?, default builtIn: Value) -> Setting<Value> {
        if let flag { return Setting(flag, from: .flag(flagName)) }
        if let env, let text = environment[env], !text.isEmpty, let parsed = parse(text) {
            return Setting(parsed, from: .environment(env))
        }
        if let value, let file { return Setting(value, from: .configFile(file.path)) }
        return Setting(builtIn, from: .builtIn)
    }

    func pickOptional<Value: Sendable & Equatable>(_ flag: Value?, _ flagName: String, file value: Value?) -> Setting<Value?> {
        pick(flag.map(Optional.some), flagName, file: value.map(Optional.some), default: nil)
    }
}
