import Foundation

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
        /// An upload codec's name.
        package var uploadCodec: String?
        package var maxChunkSeconds: Double?
        package var maxRequestBytes: Int64?
        package var jobs: Int?
        package var publicURL: String?
        package var askedBy: String?
        /// `--translate` given (nil: not given; the flag only ever turns translation on).
        package var translate: Bool?
        /// `--chat-url`, `--chat-model`.
        package var chatURL: String?
        package var chatModel: String?
        /// `record --reflect`: this take gets a reflection job.
        package var reflect = false

        package init() {}
    }

    /// The endpoint a run talks to now, and where its base URL came from.
    package struct Endpoint: Sendable {
        package let baseURL: Setting<String>
        /// The environment variable the key is read from; nil: no key.
        package let keyVariable: String?
        /// The config file's table, when the endpoint is the file's.
        package let fromFile: EndpointTable?
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
    /// An upload codec's name, one of `SettingRules.uploadCodecs`.
    package let uploadCodec: Setting<String>
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
    package var endpoints: [EndpointTable] { file?.endpoints ?? [] }

    /// Built-in defaults.
    package static let defaultDevice = "default"
    package static let defaultRate = 16000
    package static let defaultJobs = 4
    /// Where `serve` listens by default, and so where links point unless told otherwise.
    package static let defaultPublicURL = "http://127.0.0.1:8787"
    /// The sample rates a capture may ask for, in Hz.
    package static let rates = 1000...768_000

    /// A `serve` running on the data home, as its record names it: its process and where its
    /// links point.
    package struct RunningServe: Sendable, Equatable {
        package let pid: Int32
        package let links: String

        package init(pid: Int32, links: String) {
            self.pid = pid
            self.links = links
        }
    }

    /// Reads the config file (`flags.config`, else the default place, where a missing file
    /// is no error) with `read` (the path and the most bytes to take) and resolves every
    /// setting; `home` is the data home's path, `runningServe` the serve running on it, if
    /// any, and `notices` what was set aside finding it.
    package static func load(flags: Flags, environment: [String: String], rules: SettingRules, home: String,
                            runningServe: RunningServe? = nil, notices: [String] = [],
                            read: (_ path: String, _ limit: Int) -> ConfigFile.Contents) throws(ConfigError) -> Settings {
        let configPath: Setting<String>
        if let given = flags.config {
            configPath = Setting((given as NSString).expandingTildeInPath, from: .flag("--config"))
        } else {
            let xdg = environment["XDG_CONFIG_HOME"].map { !$0.isEmpty } ?? false
            configPath = Setting(ConfigFile.defaultURL(environment: environment).path,
                                 from: xdg ? .environment("XDG_CONFIG_HOME") : .builtIn)
        }
        let path = URL(fileURLWithPath: configPath.value).path
        let file = try ConfigFile.load(read(path, ConfigFile.largestBytes), path: path, required: flags.config != nil, rules: rules)
        return Settings(flags: flags, environment: environment, rules: rules, home: home, file: file, configPath: configPath,
                        runningServe: runningServe, notices: notices)
    }

    /// Resolves every setting from what was given; `home` is the data home's path (its rule is
    /// the home's own), `runningServe` the serve running on the home, if any.
    package init(flags: Flags, environment: [String: String], rules: SettingRules, home: String, file: ConfigFile?,
                configPath: Setting<String>, runningServe: RunningServe? = nil, notices: [String] = []) {
        self.file = file
        var notices = notices
        self.configPath = configPath
        let resolver = Resolver(environment: environment, file: file)
        let defaults = file?.defaults ?? ConfigFile.Defaults()

        // The home has its own rule (the config file has no say in it, and $XDG_DATA_HOME only
        // moves the default); here it is only told where it came from.
        self.home = resolver.pick(flags.home.map { _ in home }, "--home",
                                  env: "VOICEJOURNAL_HOME", { _ in home }, file: nil, default: home)
        journal = resolver.pick(flags.journal, "--journal", file: defaults.journal, default: rules.defaultJournal)
        device = resolver.pick(flags.device, "--device", file: defaults.device, default: Self.defaultDevice)
        rate = resolver.pick(flags.rate, "--rate", file: defaults.rate, default: Self.defaultRate)
        language = resolver.pickOptional(flags.language?.lowercased(), "--language", file: defaults.language)
        uploadCodec = resolver.pick(flags.uploadCodec, "--upload-codec", file: defaults.uploadCodec, default: rules.defaultUploadCodec)
        maxChunkSeconds = resolver.pick(flags.maxChunkSeconds, "--max-chunk-seconds",
                                        file: defaults.maxChunkSeconds, default: rules.defaultMaxChunkSeconds)
        maxRequestBytes = resolver.pick(flags.maxRequestBytes, "--max-request-bytes",
                                        file: defaults.maxRequestBytes, default: rules.defaultMaxRequestBytes)

        // The endpoint: one named on the command line or in the environment wins over the
        // file's preferred one (the first of the highest priority), else OpenAI's.
        let preferred = EndpointTable.preferred(file?.endpoints ?? []).first
        let baseURL = resolver.pick(flags.baseURL, "--base-url", env: "OPENAI_BASE_URL", { $0 },
                                    file: preferred?.baseURL, default: rules.defaultBaseURL)
        let fromFile = baseURL.source == .configFile(file?.path ?? "") ? preferred : nil
        endpoint = Endpoint(baseURL: baseURL, keyVariable: fromFile == nil ? "OPENAI_API_KEY" : fromFile?.apiKeyVariable,
                            fromFile: fromFile)
        // The endpoint's own model before the file's default one: it is what that server runs.
        model = resolver.pick(flags.model, "--model", env: "VOICEJOURNAL_MODEL", { $0 },
                              file: fromFile?.model ?? defaults.model, default: rules.defaultModel)
        let poolJobs = fromFile == nil ? nil : (file?.endpoints ?? []).reduce(0) { $0 + max(1, $1.concurrency) }
        jobs = resolver.pick(flags.jobs, "--jobs", file: poolJobs, default: Self.defaultJobs)
        let publicURL = resolver.pick(flags.publicURL.map(Self.trimmedURL), "--public-url", env: "VOICEJOURNAL_PUBLIC_URL",
                                      { rules.isPublicURL($0) ? Self.trimmedURL($0) : nil },
                                      file: defaults.publicURL, default: Self.defaultPublicURL)
        // A serve's record is data like the config file: its links are checked the same way,
        // and a record naming something else is passed over as a stale one is.
        let serve = runningServe.flatMap { rules.isPublicURL($0.links) ? $0 : nil }
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
        encourage = resolver.pick(nil, "--quiet", file: defaults.encourage, default: true)
        chat = Chat(flags: flags, resolver: resolver, table: file?.chat)
        autoReflect = resolver.pick(flags.reflect ? true : nil, "--reflect", file: file?.chat?.reflect.map { $0 == "auto" }, default: false)
    }

    /// Whether `record` and `entry add` print a line of encouragement (`encourage` under
    /// `[defaults]`; their `--quiet` turns it off for one command).
    package let encourage: Setting<Bool>

    /// The chat endpoint reflections are asked of: nil when none is named anywhere — a
    /// journal's text goes only where the user said.
    package let chat: Chat?

    /// Whether a new entry gets a reflection job in the queue, run once its words are there
    /// (`reflect = "auto"` under `[chat]`, or `record --reflect` for one take).
    package let autoReflect: Setting<Bool>

    /// The chat endpoint as flags, environment and the config file's `[chat]` name it.
    package struct Chat: Sendable, Equatable {
        package let baseURL: Setting<String>
        package let model: Setting<String>
        /// The variable the key is read from: the table's `api_key_env`, else `VOICEJOURNAL_CHAT_API_KEY`.
        package let keyVariable: String
        /// `json_schema` or `json_object`; nil: learned from the server.
        package let schema: String?
        /// Dollars per million input and output tokens, when both are given.
        package let prices: [Double]?
        /// Every server of the pool, the preferred first: the one above, then the
        /// `[[chat.endpoint]]` tables by priority. A URL from a flag or the environment is
        /// the only one (the user named where the words go for this run).
        package let pool: [Member]
        /// Where `ask` gets vectors (`[chat] embeddings_model`, `embeddings_url`, else the first
        /// server's base URL); nil: it searches by words alone.
        package let embeddings: Embeddings?

        /// An embeddings endpoint: its base URL and model.
        package struct Embeddings: Sendable, Equatable {
            package let baseURL: String
            package let model: String
        }

        /// One server of the pool, each value its own or `[chat]`'s.
        package struct Member: Sendable, Equatable {
            package let baseURL: String
            package let model: String
            package let keyVariable: String
            package let schema: String?
            package let prices: [Double]?
            /// Where its URL was named, for messages: `[chat] base_url in PATH`, `--chat-url`.
            package let origin: String
        }
        /// The model's context window in tokens, as `[chat] context` gives it; nil: the
        /// chat module's default (the local server's).
        package let context: Int?

        /// The model asked for when none is named: the local server's (`voicejournal-chat-server`).
        package static let localModel = "SmolLM2-135M-Instruct"

        fileprivate init?(flags: Flags, resolver: Resolver, table given: ChatTable?) {
            let table = given.map(Self.promoted)
            let url = resolver.pickOptional(flags.chatURL.map(Settings.trimmedURL), "--chat-url", file: table?.baseURL)
            let fromEnvironment = resolver.environment["VOICEJOURNAL_CHAT_URL"].map(Settings.trimmedURL).flatMap { $0.isEmpty ? nil : $0 }
            let base: Setting<String>
            if let given = url.value, case .flag = url.source {
                base = Setting(given, from: url.source)
            } else if let fromEnvironment {
                base = Setting(fromEnvironment, from: .environment("VOICEJOURNAL_CHAT_URL"))
            } else if let given = url.value {
                base = Setting(given, from: url.source)
            } else {
                return nil
            }
            baseURL = base
            model = resolver.pick(flags.chatModel, "--chat-model", env: "VOICEJOURNAL_CHAT_MODEL", { $0 }, file: table?.model,
                                  default: Self.localModel)
            keyVariable = table?.apiKeyVariable ?? "VOICEJOURNAL_CHAT_API_KEY"
            schema = table?.schema
            prices = Self.prices(table)
            context = table?.context
            let origin = switch base.source {
            case .flag(let name), .environment(let name): name
            case .configFile(let path): "[chat] base_url in \(path)"
            case .runningServe, .builtIn: "--chat-url"
            }
            var members = [Member(baseURL: base.value, model: model.value, keyVariable: keyVariable, schema: schema, prices: prices, origin: origin)]
            if case .configFile(let path) = base.source, let table {
                let pinned = flags.chatModel ?? resolver.environment["VOICEJOURNAL_CHAT_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
                // What a member leaves out comes from [chat] as written, not from a member promoted into it.
                members += Self.endpointMembers(table, shared: given ?? table, pinnedModel: pinned, path: path)
            }
            pool = members
            embeddings = table?.embeddingsModel.map { Embeddings(baseURL: table?.embeddingsURL ?? members[0].baseURL, model: $0) }
        }

        /// The pool's members from `table`'s `[[chat.endpoint]]` tables, by priority: what one
        /// leaves out comes from `shared` (`[chat]`), its model from `pinnedModel` when a flag
        /// or the environment names one for the run.
        private static func endpointMembers(_ table: ChatTable, shared: ChatTable, pinnedModel: String?, path: String) -> [Member] {
            let sharedModel = shared.model ?? localModel, sharedKey = shared.apiKeyVariable ?? "VOICEJOURNAL_CHAT_API_KEY"
            return preferred(table.endpoints).map { member in
                Member(baseURL: Settings.trimmedURL(member.baseURL ?? ""), model: pinnedModel ?? member.model ?? sharedModel,
                       keyVariable: member.apiKeyVariable ?? sharedKey, schema: member.schema ?? shared.schema,
                       prices: prices(member) ?? prices(shared), origin: "[[chat.endpoint]] base_url in \(path)")
            }
        }

        /// `[chat]` with no base_url of its own: its most preferred `[[chat.endpoint]]` stands in.
        private static func promoted(_ table: ChatTable) -> ChatTable {
            guard table.baseURL == nil, let first = preferred(table.endpoints).first else { return table }
            var table = table
            table.endpoints.removeAll { $0 == first }
            table.baseURL = first.baseURL
            table.model = first.model ?? table.model
            table.apiKeyVariable = first.apiKeyVariable ?? table.apiKeyVariable
            table.schema = first.schema ?? table.schema
            if prices(first) != nil { (table.priceInput, table.priceOutput) = (first.priceInput, first.priceOutput) }
            return table
        }

        /// A table's prices, when it gives both.
        private static func prices(_ table: ChatTable?) -> [Double]? {
            table.flatMap { table in table.priceInput.flatMap { input in table.priceOutput.map { [input, $0] } } }
        }

        /// Highest priority first, file order within one.
        private static func preferred(_ tables: [ChatTable]) -> [ChatTable] {
            tables.enumerated().sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
                .map(\.element)
        }
    }

    /// The longest public URL taken, in bytes: a link is for a person to open, and a
    /// 5 MB one is an attack on whatever shows it.
    package static let longestPublicURL = 2048

    /// A base URL without the trailing slash, so `<url>/a/<token>` has one slash.
    static func trimmedURL(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The link that answers an assignment: `<public URL>/a/<token>`.
    package func answerLink(token: String) -> String { "\(publicURL.value)/a/\(token)" }

    /// What set the public URL, as a line about links names it; nil for the default and a
    /// running serve's.
    package var publicURLOrigin: String? {
        switch publicURL.source {
        case .flag(let name), .environment(let name): name
        case .configFile(let path): "public_url in \(path)"
        case .runningServe, .builtIn: nil
        }
    }

    /// The language every upload of a run asks for: only one given for the run (`--language`,
    /// nil: none); the config file's comes after a recording's person's or journal's
    /// (`fallbackLanguage`).
    package var runLanguage: String? { fallbackLanguage == nil ? language.value : nil }

    /// The config file's language, used for a recording whose person and journal name none.
    package var fallbackLanguage: String? {
        if case .configFile = language.source { return language.value }
        return nil
    }

    /// Whether the model was named for the run (a flag or the environment): then it is every
    /// endpoint's; otherwise each endpoint of the file asks for its own.
    package var modelNamedForRun: Bool {
        switch model.source {
        case .flag, .environment: true
        case .configFile, .runningServe, .builtIn: false
        }
    }
}

/// The one rule every setting follows: flag, environment, config file, default.
fileprivate struct Resolver {
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
