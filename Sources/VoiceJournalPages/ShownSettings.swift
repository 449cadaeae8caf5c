import Foundation
import VoiceJournalSettings
import VoiceJournalTerminal
import VoiceJournalTranscription

/// What `config show` prints: every setting as a value and its source, the endpoint in
/// use, and the file's endpoints. Keys appear only as whether their variable is set.
package struct ShownSettings: Encodable, Sendable {
    /// One setting: its value as text (nil: none), the kind of place it came from, and that place's name.
    package struct Value: Encodable, Sendable {
        package let name: String
        package let value: String?
        package let source: String
        package let origin: String?
    }

    /// An endpoint of the config file: its address as shown (no credentials), and whether its key is set.
    package struct Endpoint: Encodable, Sendable {
        package let baseURL: String
        package let model: String?
        package let apiKeyEnv: String?
        package let keySet: Bool
        package let concurrency: Int
        package let priority: Int
        package let inUse: Bool
    }

    /// The config file read or looked for, how its path was chosen, and whether it was there.
    package struct ConfigFileState: Encodable, Sendable {
        package let path: String
        package let source: String
        package let origin: String?
        package let found: Bool
    }

    package let configFile: ConfigFileState
    package let settings: [Value]
    /// The variable the key of the endpoint in use is read from (nil: none) and whether it is set.
    package let apiKeyEnv: String?
    package let apiKeySet: Bool
    package let endpoints: [Endpoint]

    /// What `settings` shows; `environment` says which key variables are set.
    package init(_ settings: Settings, environment: [String: String]) {
        func value<V>(_ name: String, _ setting: Setting<V>, _ text: (V) -> String?) -> Value {
            let (source, origin) = Self.describe(setting.source)
            return Value(name: name, value: text(setting.value), source: source, origin: origin)
        }
        let (fileSource, fileOrigin) = Self.describe(settings.configPath.source)
        configFile = ConfigFileState(path: settings.configPath.value, source: fileSource, origin: fileOrigin,
                                     found: settings.file != nil)
        let baseURL = settings.endpoint.baseURL
        self.settings = [
            value("home", settings.home) { $0 },
            value("journal", settings.journal) { $0 },
            value("device", settings.device) { $0 },
            value("rate", settings.rate) { String($0) },
            value("model", settings.model) { $0 },
            value("language", settings.language) { $0 },
            value("upload_codec", settings.uploadCodec) { $0 },
            value("max_chunk_seconds", settings.maxChunkSeconds) { String(format: "%g", $0) },
            value("max_request_bytes", settings.maxRequestBytes) { String($0) },
            value("base_url", baseURL) { WhisperClient.Configuration(baseURL: $0, apiKey: nil).shownBaseURL },
            value("jobs", settings.jobs) { String($0) },
            value("public_url", settings.publicURL) { $0 },
            value("asked_by", settings.askedBy) { $0 },
            value("translate", settings.translate) { $0 ? "true" : "false" },
        ]
        apiKeyEnv = settings.endpoint.keyVariable
        apiKeySet = settings.endpoint.keyVariable.map { EndpointConfig.isKeySet($0, environment: environment) } ?? false
        endpoints = settings.endpoints.map { table in
            let endpoint = EndpointConfig(baseURL: table.baseURL, apiKeyVariable: table.apiKeyVariable)
            return Endpoint(baseURL: endpoint.shownBaseURL, model: table.model, apiKeyEnv: table.apiKeyVariable,
                            keySet: endpoint.hasKey(environment: environment), concurrency: table.concurrency,
                            priority: table.priority, inUse: settings.endpoint.fromFile != nil)
        }
    }

    /// Where the language stands among the others an upload may take: a flag's is sent with
    /// every upload of the run; the config file's (or none) only for a recording whose
    /// person and journal set none.
    private static func languageNote(source: String) -> String {
        source == "flag" ? "  (every upload of the run)" : "  (after the answering person's, then the journal's)"
    }

    /// A source as a kind and, for flags, variables and files, its name.
    private static func describe(_ source: SettingSource) -> (String, String?) {
        switch source {
        case .flag(let name): ("flag", name)
        case .environment(let name): ("environment", name)
        case .configFile(let path): ("config file", path)
        case .runningServe(let pid): ("running serve", "pid \(pid)")
        case .builtIn: ("default", nil)
        }
    }

    /// The human listing: one line per setting, then the endpoints.
    package func lines() -> [String] {
        let found = configFile.found ? "" : " (not found: built-in defaults)"
        var lines = ["config file: " + TerminalText.escaped(configFile.path) + found + "  [" + Self.sourceText(configFile.source, configFile.origin) + "]"]
        let width = (settings.map(\.name.count) + ["api key".count]).max() ?? 0
        for setting in settings {
            let shown = setting.value.map(TerminalText.escaped) ?? (setting.name == "language" ? "(detected)" : "(none)")
            lines.append(Self.pad(setting.name, width) + "  " + shown + "  [" + Self.sourceText(setting.source, setting.origin) + "]"
                         + (setting.name == "language" ? Self.languageNote(source: setting.source) : ""))
        }
        let key = apiKeyEnv.map { "\($0) " + (apiKeySet ? "set" : "unset") } ?? "none (no api_key_env)"
        lines.append(Self.pad("api key", width) + "  " + key)
        if !endpoints.isEmpty {
            lines.append(endpoints.first?.inUse == true
                ? "endpoints in the config file (runs spread their uploads over them, higher priority first):"
                : "endpoints in the config file (not used: --base-url or OPENAI_BASE_URL names the server):")
            for (index, endpoint) in endpoints.enumerated() {
                let key = endpoint.apiKeyEnv.map { "key \($0) " + (endpoint.keySet ? "set" : "unset") } ?? "no key"
                lines.append("  \(index + 1). " + TerminalText.escaped(endpoint.baseURL)
                             + "  model " + TerminalText.escaped(endpoint.model ?? "(run's)")
                             + "  concurrency \(endpoint.concurrency)  priority \(endpoint.priority)  " + key
                             + (endpoint.inUse ? "  (in use)" : ""))
            }
        }
        return lines
    }

    private static func sourceText(_ source: String, _ origin: String?) -> String {
        // "running serve, pid 1234": the pid is no name of the source, as a flag's or a file's is.
        origin.map { source + (source == "running serve" ? ", " : " ") + TerminalText.escaped($0) } ?? source
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
