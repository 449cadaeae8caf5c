import VoiceJournalCCurl
import Foundation
import Logging
import Synchronization

/// The transcription endpoint and how to talk to it: `POST {base}/audio/transcriptions`
/// (and `{base}/audio/translations` for English translations) with a bearer key, over libcurl. Cheap to copy and share; each worker makes its own
/// `WhisperConnection` (one curl handle, one kept-alive connection).
public struct WhisperClient: Sendable {
    /// Where the server is and how long to wait for it.
    public struct Configuration: Sendable, CustomStringConvertible {
        /// The API base, e.g. `https://api.openai.com/v1` (no trailing slash). It may hold
        /// credentials (`user:pass@`): show `shownBaseURL` instead.
        public let baseURL: String
        /// Never printed, logged or stored; only put in the Authorization header.
        let apiKey: String?
        /// The key and the base URL's credentials, to take out of any text that is kept.
        let secrets: Secrets
        /// Seconds to establish a connection.
        public var connectTimeout: Double
        /// Seconds for the whole request, upload and answer included.
        public var timeout: Double
        /// The upload is abandoned when it moves fewer than `lowSpeedLimit` bytes per
        /// second for `lowSpeedTime` seconds (a stalled network), long before `timeout`.
        public var lowSpeedLimit: Int
        public var lowSpeedTime: Double
        /// Seconds the answer may take once the upload is sent, at least: a server that took
        /// the upload and says nothing for longer is treated as out of reach (see
        /// `answerDeadline(audioSeconds:)`).
        public var answerTimeout: Double = 60
        /// Seconds added to `answerTimeout` per second of audio sent: a long chunk takes the
        /// model longer than a short take.
        public var answerTimeoutPerAudioSecond: Double = 2
        /// Where the base URL was given, for the advice in messages.
        public var origin = "--base-url / OPENAI_BASE_URL"

        /// The default endpoint.
        public static let openAIBaseURL = "https://api.openai.com/v1"

        /// A configuration; prefer `resolve(baseURL:keyVariable:environment:origin:)`, which
        /// applies the documented rules for the key and timeouts. Which base URL a command
        /// uses (flag, environment, config file, default) is decided by its settings, not here.
        public init(baseURL: String = Configuration.openAIBaseURL, apiKey: String?, connectTimeout: Double = 10,
                    timeout: Double = 600, lowSpeedLimit: Int = 1, lowSpeedTime: Double = 60) {
            var base = baseURL.trimmingCharacters(in: .whitespaces)
            while base.hasSuffix("/") { base.removeLast() }
            self.baseURL = base
            let key = apiKey.map(Self.trimmedKey)
            self.apiKey = key.flatMap { $0.isEmpty ? nil : $0 }
            secrets = Secrets(apiKey: self.apiKey, baseURL: base)
            self.connectTimeout = connectTimeout
            self.timeout = timeout
            self.lowSpeedLimit = lowSpeedLimit
            self.lowSpeedTime = lowSpeedTime
        }

        /// How long the answer to an upload of `audioSeconds` of audio may take once the
        /// upload is sent: `answerTimeout` plus `answerTimeoutPerAudioSecond` per second of
        /// audio. Nil for audio of unknown length: the whole request's `timeout` alone
        /// (which also bounds a deadline longer than it, as a plain timeout).
        public func answerDeadline(audioSeconds: Double?) -> Double? {
            guard let audioSeconds, audioSeconds.isFinite, audioSeconds >= 0 else { return nil }
            return answerTimeout + answerTimeoutPerAudioSecond * audioSeconds
        }

        /// Whether a key was given (the key itself is not readable from outside the module).
        public var hasAPIKey: Bool { apiKey != nil }

        /// The full URL transcriptions go to.
        public var endpoint: String { endpoint(for: .transcribe) }

        /// The full URL uploads of `task` go to.
        public func endpoint(for task: TranscriptionTask) -> String { baseURL + task.path }

        /// The base URL as it may be shown: credentials in it (`user:pass@`) replaced by `***`.
        public var shownBaseURL: String { secrets.redact(baseURL) }

        /// `text` without any secret of this configuration: the key, the base URL's
        /// credentials (also percent-encoded), and the credentials of any URL in it.
        public func redact(_ text: String) -> String { secrets.redact(text) }

        public var description: String {
            "\(secrets.redact(endpoint)) (key \(hasAPIKey ? "set" : "not set"), timeout \(timeout) s)"
        }

        /// Whether the base URL names this machine (a local server needs no key).
        public var isLoopback: Bool {
            guard let host = URLComponents(string: baseURL)?.host?.lowercased() else { return false }
            return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        }

        /// The configuration for `baseURL`, its key read from the environment variable named
        /// `keyVariable` (nil: no key; a loopback server may go without, a remote one may not);
        /// `$VOICEJOURNAL_HTTP_TIMEOUT` overrides the timeout, `$VOICEJOURNAL_ANSWER_TIMEOUT` and
        /// `$VOICEJOURNAL_ANSWER_TIMEOUT_PER_AUDIO_SECOND` the answer's deadline. `origin` says
        /// where the base URL was given, for messages.
        public static func resolve(baseURL base: String, keyVariable: String?, environment: [String: String],
                                   origin: String) throws(TranscriptionError) -> Configuration {
            guard isHTTPURL(base) else {
                let shown = Secrets(apiKey: nil, baseURL: base).redact(base)
                throw TranscriptionError(kind: .invalidConfiguration,
                                         description: "the base URL \(shown) is not an http(s) URL; check \(origin)")
            }
            let key = keyVariable.flatMap { environment[$0] }.map(trimmedKey)
            if let key, let keyVariable, !isUsableKey(key) {
                // Never quoted: it is still a secret, however broken.
                throw TranscriptionError(kind: .invalidConfiguration, description:
                    "\(keyVariable) holds a line break, control character or non-ASCII character; set it to the key alone")
            }
            var configuration = Configuration(baseURL: base, apiKey: key)
            configuration.origin = origin
            if !configuration.hasAPIKey && !configuration.isLoopback {
                let advice = switch keyVariable {
                case "OPENAI_API_KEY": "set OPENAI_API_KEY (or point OPENAI_BASE_URL at a local server)"
                case let name?: "set \(name) (named by api_key_env for \(configuration.shownBaseURL))"
                case nil: "give \(origin) an api_key_env naming the variable that holds its key"
                }
                throw TranscriptionError(kind: .invalidConfiguration, description: "no API key: " + advice)
            }
            // At most a day: libcurl takes milliseconds as a whole number, which a huge value would overflow.
            if let timeout = environment["VOICEJOURNAL_HTTP_TIMEOUT"].flatMap(Double.init).map({ min($0, 86_400) }), timeout > 0 {
                configuration.timeout = timeout
                configuration.connectTimeout = min(configuration.connectTimeout, timeout)
                configuration.lowSpeedTime = min(configuration.lowSpeedTime, timeout)
            }
            if let seconds = environment["VOICEJOURNAL_ANSWER_TIMEOUT"].flatMap(Double.init), seconds > 0, seconds.isFinite {
                configuration.answerTimeout = seconds
            }
            if let perSecond = environment["VOICEJOURNAL_ANSWER_TIMEOUT_PER_AUDIO_SECOND"].flatMap(Double.init),
               perSecond >= 0, perSecond.isFinite {
                configuration.answerTimeoutPerAudioSecond = perSecond
            }
            return configuration
        }

        /// Whether `text` is an http(s) URL with a host: the only kind of base URL that can work.
        public static func isHTTPURL(_ text: String) -> Bool {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else { return false }
            return ["http", "https"].contains(components.scheme?.lowercased() ?? "")
        }

        /// The key without the whitespace around it (a `.env` file with CRLF line ends
        /// leaves a `\r` at its end).
        package static func trimmedKey(_ key: String) -> String {
            key.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n"))
        }

        /// Whether the key can go into a header as it is: printable ASCII only. A line
        /// break inside it would add headers of its own to every request.
        package static func isUsableKey(_ key: String) -> Bool {
            key.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        }
    }

    public let configuration: Configuration
    let logger: Logger

    /// A client for `configuration`; `logger` gets one debug line per upload (never the key).
    /// The first client starts loading libcurl on a thread of its own, so a command that will
    /// upload has it loaded by its first connection (it opens the journal meanwhile).
    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        ccurl_preload()
    }

    /// A connection for one worker. `abort` stops its transfer in flight when raised.
    public func makeConnection(abort: AbortSignal = AbortSignal()) throws(TranscriptionError) -> WhisperConnection {
        do {
            return WhisperConnection(client: self, easy: try CurlEasy(), abort: abort)
        } catch {
            throw TranscriptionError(kind: .invalidConfiguration, description: "libcurl could not start: \(error)")
        }
    }
}

/// A flag raised to stop transfers in flight (the run is ending: Ctrl-C, a bad key).
/// libcurl polls it from its progress callback, on the transfer's own thread.
public final class AbortSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    /// Asks every transfer watching this signal to stop.
    public func raise() { raised.store(true, ordering: .releasing) }

    public var isRaised: Bool { raised.load(ordering: .acquiring) }
}
