import Foundation

/// One OpenAI-compatible transcription server as the config file's `[[endpoint]]` table
/// describes it: where it is, which model it runs, how many uploads it takes at once, and
/// the name of the environment variable that holds its key (never the key itself).
public struct EndpointConfig: Sendable, Equatable {
    /// The API base, e.g. `http://127.0.0.1:8000/v1`. It may hold credentials: show
    /// `shownBaseURL` instead.
    public var baseURL: String
    /// The model this server is asked for; nil: the run's model.
    public var model: String?
    /// The name of the environment variable holding this endpoint's key; nil: no key (a
    /// server on this machine needs none).
    public var apiKeyVariable: String?
    /// Uploads this server takes at once.
    public var concurrency: Int
    /// Higher numbers are used first; an endpoint with a lower number is overflow.
    public var priority: Int
    /// The line of the table's `[[endpoint]]` header in its file, for messages.
    public var line: Int?

    /// Uploads at once when the table does not say.
    public static let defaultConcurrency = 4

    public init(baseURL: String, model: String? = nil, apiKeyVariable: String? = nil,
                concurrency: Int = EndpointConfig.defaultConcurrency, priority: Int = 0, line: Int? = nil) {
        self.baseURL = baseURL
        self.model = model
        self.apiKeyVariable = apiKeyVariable
        self.concurrency = concurrency
        self.priority = priority
        self.line = line
    }

    /// The base URL as it may be shown: credentials in it (`user:pass@`) replaced by `***`.
    public var shownBaseURL: String { Secrets(apiKey: nil, baseURL: baseURL).redact(baseURL) }

    /// Whether this endpoint's key variable is named and set to something (the key itself
    /// is read only by `clientConfiguration`).
    public func hasKey(environment: [String: String]) -> Bool {
        apiKeyVariable.map { Self.isKeySet($0, environment: environment) } ?? false
    }

    /// Whether the variable `name` holds something other than whitespace.
    public static func isKeySet(_ name: String, environment: [String: String]) -> Bool {
        guard let key = environment[name] else { return false }
        return !WhisperClient.Configuration.trimmedKey(key).isEmpty
    }

    /// The client configuration for this endpoint, its key read from its variable.
    public func clientConfiguration(environment: [String: String]) throws(TranscriptionError) -> WhisperClient.Configuration {
        try WhisperClient.Configuration.resolve(
            baseURL: baseURL, keyVariable: apiKeyVariable, environment: environment,
            origin: "the config file's endpoint \(shownBaseURL)")
    }

    /// What makes two tables the same server: the base URL with its scheme and host in
    /// lower case, the default port and trailing slashes left out, and the model asked for.
    /// Two tables for one server would only double its uploads under two names.
    public var identity: String {
        var base = baseURL.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        guard var components = URLComponents(string: base) else { return base + " " + (model ?? "") }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        return (components.string ?? base) + " " + (model ?? "")
    }

    /// The endpoints without repeats (`identity`), the first table of each server kept, and
    /// the repeats left out.
    public static func distinct(_ endpoints: [EndpointConfig]) -> (kept: [EndpointConfig], repeats: [EndpointConfig]) {
        var seen: Set<String> = []
        var kept: [EndpointConfig] = [], repeats: [EndpointConfig] = []
        for endpoint in endpoints {
            if seen.insert(endpoint.identity).inserted { kept.append(endpoint) } else { repeats.append(endpoint) }
        }
        return (kept, repeats)
    }
}
