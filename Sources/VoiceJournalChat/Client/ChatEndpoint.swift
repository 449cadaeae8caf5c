import Foundation
import VoiceJournalTranscription

/// A chat endpoint and how to talk to it: `POST {base}/chat/completions` (OpenAI's API, which
/// llama.cpp's and llama-cpp-python's servers also speak) with a bearer key, over libcurl.
/// A journal's text goes only to an endpoint the user named: there is no default server.
public struct ChatEndpoint: Sendable, CustomStringConvertible {
    /// How the answer's JSON schema goes in `response_format`.
    public enum SchemaForm: String, Sendable, CaseIterable {
        /// OpenAI's `{"type": "json_schema", "json_schema": {"name", "strict", "schema"}}`.
        case jsonSchema = "json_schema"
        /// `{"type": "json_object", "schema": {…}}`: the only form llama-cpp-python's server
        /// takes (it answers the other with HTTP 500), enforced there by a grammar.
        case jsonObject = "json_object"
    }

    /// The API base, e.g. `http://127.0.0.1:8179/v1` (no trailing slash). It may hold
    /// credentials: show `shownBaseURL` instead.
    public let baseURL: String
    /// The model asked for.
    public let model: String
    /// Never printed, logged or stored; only put in the Authorization header.
    let apiKey: String?
    let secrets: Secrets
    /// The schema form to use first; nil: learned from the server (json_object for a server on
    /// this machine, json_schema elsewhere, switched once when a server refuses it).
    public var schemaForm: SchemaForm?
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 10
    /// Seconds for the whole request.
    public var timeout: Double = 600
    /// Seconds the answer may take once the request is sent: a server that takes it and
    /// says nothing for longer is treated as out of reach.
    public var answerTimeout: Double = 120
    /// The model's context window in tokens, the prompt and the answer together: what a
    /// request is planned to fit (an entry longer than it is reflected in parts). The server
    /// has the last word: its context error makes the parts smaller.
    public var contextTokens = ChatEndpoint.defaultContextTokens
    /// The local server's context (`chat-server --context`, SmolLM2's own), and a size most
    /// chat models take; a larger model's is named in `[chat] context`.
    public static let defaultContextTokens = 8192
    /// Dollars per million input and output tokens (nil: not known; a loopback server costs nothing).
    public var pricePerMillion: (input: Double, output: Double)?
    /// Where the endpoint was named, for the advice in messages.
    public var origin = "--chat-url / VOICEJOURNAL_CHAT_URL"
    /// Where the key came from, for the advice when it is refused.
    public var keyVariable: String?

    /// An endpoint; prefer `resolve`, which checks the URL and the key.
    public init(baseURL: String, model: String, apiKey: String?) {
        var base = baseURL.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.model = model
        let key = apiKey.map(WhisperClient.Configuration.trimmedKey).flatMap { $0.isEmpty ? nil : $0 }
        self.apiKey = key
        secrets = Secrets(apiKey: key, baseURL: base)
    }

    /// The endpoint for `baseURL` and `model`, its key read from the environment variable
    /// `keyVariable` names (nil: none; a server on this machine may go without, another may not).
    public static func resolve(baseURL: String, model: String, keyVariable: String?, environment: [String: String],
                               origin: String) throws(ChatError) -> ChatEndpoint {
        guard WhisperClient.Configuration.isHTTPURL(baseURL) else {
            let shown = Secrets(apiKey: nil, baseURL: baseURL).redact(baseURL)
            throw ChatError(kind: .invalidConfiguration, description: "the chat URL \(shown) is not an http(s) URL; check \(origin)")
        }
        guard !model.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ChatError(kind: .invalidConfiguration, description: "no chat model named; give --chat-model, VOICEJOURNAL_CHAT_MODEL or the config's [chat] model")
        }
        let key = keyVariable.flatMap { environment[$0] }.map(WhisperClient.Configuration.trimmedKey)
        if let key, let keyVariable, !WhisperClient.Configuration.isUsableKey(key) {
            throw ChatError(kind: .invalidConfiguration, description:
                "\(keyVariable) holds a line break, control character or non-ASCII character; set it to the key alone")
        }
        var endpoint = ChatEndpoint(baseURL: baseURL, model: model, apiKey: key)
        endpoint.origin = origin
        endpoint.keyVariable = keyVariable
        if !endpoint.hasAPIKey && !endpoint.isLoopback {
            throw ChatError(kind: .invalidConfiguration, description:
                "no API key for \(endpoint.shownBaseURL): set \(keyVariable ?? "VOICEJOURNAL_CHAT_API_KEY") (a server on this machine needs none)")
        }
        if let timeout = environment["VOICEJOURNAL_HTTP_TIMEOUT"].flatMap(Double.init).map({ min($0, 86_400) }), timeout > 0 {
            endpoint.timeout = timeout
            endpoint.connectTimeout = min(endpoint.connectTimeout, timeout)
        }
        if let seconds = environment["VOICEJOURNAL_ANSWER_TIMEOUT"].flatMap(Double.init), seconds > 0, seconds.isFinite {
            endpoint.answerTimeout = seconds
        }
        return endpoint
    }

    /// Whether a key was given (the key itself is not readable from outside the module).
    public var hasAPIKey: Bool { apiKey != nil }

    /// The base URL as it may be shown: credentials replaced by `***`.
    public var shownBaseURL: String { secrets.redact(baseURL) }

    /// The host the endpoint is on, as stored with a reflection (no credentials, no path).
    public var host: String {
        guard let components = URLComponents(string: baseURL), let host = components.host else { return shownBaseURL }
        return components.port.map { "\(host):\($0)" } ?? host
    }

    /// `text` without any secret of this endpoint.
    public func redact(_ text: String) -> String { secrets.redact(text) }

    /// Whether the base URL names this machine: it needs no key and costs nothing.
    public var isLoopback: Bool {
        guard let host = URLComponents(string: baseURL)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The form to send a schema in when nothing was learned yet.
    public var firstSchemaForm: SchemaForm { schemaForm ?? (isLoopback ? .jsonObject : .jsonSchema) }

    /// What `usage` cost at this endpoint's prices, in dollars: zero on this machine, nil when no price is known.
    public func cost(inputTokens: Int, outputTokens: Int) -> Double? {
        if isLoopback { return 0 }
        guard let price = pricePerMillion else { return nil }
        return (Double(inputTokens) * price.input + Double(outputTokens) * price.output) / 1_000_000
    }

    /// The full URL chat completions go to.
    public var completionsURL: String { baseURL + "/chat/completions" }

    public var description: String {
        "\(shownBaseURL) model \(model) (key \(hasAPIKey ? "set" : "not set"))"
    }
}
