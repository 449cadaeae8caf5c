import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct TranscriptionRequestTests {
    @Test func whisperGetsSegmentsAndWordsAndOnlyTheHintsGiven() {
        let request = TranscriptionRequest(file: URL(fileURLWithPath: "/a/b.mp3"), options: .init())
        #expect(request.fields.map(\.name) == ["model", "response_format", "timestamp_granularities[]", "timestamp_granularities[]", "temperature"])
        #expect(request.fields.map(\.value) == ["whisper-1", "verbose_json", "segment", "word", "0"])
        #expect(request.filename == "b.mp3")
        #expect(request.contentType == "audio/mpeg")
    }

    @Test(arguments: ["gpt-4o-transcribe", "gpt-4o-mini-transcribe", "GPT-4o-Transcribe"])
    func gpt4oTranscribeModelsGetPlainJSON(model: String) {
        let options = TranscriptionOptions(model: model, language: "en", prompt: "Names: Ana")
        let request = TranscriptionRequest(file: URL(fileURLWithPath: "/x.wav"), options: options)
        #expect(options.responseFormat == .json)
        #expect(request.fields.map(\.name) == ["model", "response_format", "language", "prompt", "temperature"])
    }

    @Test func decodesVerboseJSONAndErrorBodies() throws {
        let verbose = Data(#"{"task":"transcribe","language":"english","duration":2.5,"text":"Hi there.","segments":[{"id":0,"seek":0,"start":0.0,"end":2.5,"text":" Hi there.","tokens":[1],"temperature":0,"avg_logprob":-0.1,"compression_ratio":1,"no_speech_prob":0}]}"#.utf8)
        let result = try WireFormat.decodeResult(verbose, format: .verboseJSON, model: "whisper-1")
        #expect(result == TranscriptionResult(text: "Hi there.", language: "en", durationSeconds: 2.5,
                                              segments: [.init(start: 0, end: 2.5, text: " Hi there.", avgLogprob: -0.1,
                                                               noSpeechProb: 0, compressionRatio: 1)], model: "whisper-1"))
        // Words are listed apart, for the whole file: each goes to the segment it was said in.
        let worded = Data(#"{"text":"Hi there. Bye.","segments":[{"start":0.0,"end":2.5,"text":" Hi there."},{"start":2.5,"end":4.0,"text":" Bye."}],"words":[{"word":"Hi","start":0.1,"end":0.4},{"word":"there.","start":0.5,"end":1.0},{"word":"Bye.","start":2.9,"end":3.3}]}"#.utf8)
        let split = try WireFormat.decodeResult(worded, format: .verboseJSON, model: "whisper-1").segments
        #expect(split.map { $0.words?.map(\.word) ?? [] } == [["Hi", "there."], ["Bye."]])
        #expect(split.last?.words?.first == TranscriptionResult.Word(start: 2.9, end: 3.3, word: "Bye."))
        let error = WireFormat.decodeError(Data(#"{"error":{"message":"Bad file","type":"invalid_request_error","param":null,"code":null}}"#.utf8))
        #expect(error?.message == "Bad file")
        #expect(WireFormat.decodeError(Data("<html>502</html>".utf8)) == nil)
    }

    @Test func anHTMLErrorPageStillGivesAReadableMessage() {
        let error = TranscriptionError.http(status: 502, body: Data("<html>Bad Gateway</html>".utf8), retryAfter: nil, secrets: Secrets(apiKey: nil, baseURL: ""))
        #expect(error.kind == .serverError)
        #expect(error.description == "the server had a problem (HTTP 502: <html>Bad Gateway</html>)")
    }

    @Test func configurationRequiresAKeyExceptForALocalServer() throws {
        #expect(throws: TranscriptionError.self) {
            try openAIConfiguration(nil, environment: [:])
        }
        do {
            _ = try openAIConfiguration("https://example.com/v1", environment: [:])
            Issue.record("expected a missing-key error")
        } catch {
            #expect(error.kind == .invalidConfiguration)
            #expect(error.description.contains("OPENAI_API_KEY"))
        }
        // Which base URL wins (flag, environment, config file) is the settings' rule: SettingsTests.
        let local = try openAIConfiguration("http://localhost:8000/v1/", environment: [:])
        #expect(local.endpoint == "http://localhost:8000/v1/audio/transcriptions")
        #expect(!local.hasAPIKey)
        let timed = try openAIConfiguration("http://127.0.0.1:9/v1", environment: ["VOICEJOURNAL_HTTP_TIMEOUT": "1.5"])
        #expect(timed.baseURL == "http://127.0.0.1:9/v1")
        #expect(timed.timeout == 1.5)
        let remote = try openAIConfiguration(nil, environment: ["OPENAI_API_KEY": "sk-secret-value"])
        #expect(remote.endpoint == "https://api.openai.com/v1/audio/transcriptions")
        #expect(!remote.description.contains("sk-secret-value"))
        #expect(throws: TranscriptionError.self) {
            try openAIConfiguration("ftp://example.com", environment: ["OPENAI_API_KEY": "k"])
        }
    }

    @Test func aKeyIsTrimmedAndOneThatCouldInjectHeadersIsRefused() throws {
        // A CRLF .env file leaves "\r" at the end of the key; spaces and tabs around it go too.
        for raw in ["sk-trim-0123\r", " sk-trim-0123\t", "sk-trim-0123\r\n", "\nsk-trim-0123 "] {
            let configuration = try openAIConfiguration(nil, environment: ["OPENAI_API_KEY": raw])
            #expect(configuration.apiKey == "sk-trim-0123", "\(raw.debugDescription)")
        }
        // Inside the key, a line break would add a header of its own to every request.
        for raw in ["sk-trim-0123\r\nX-Injected: 1", "sk-\u{1B}[31m", "sk-ключ-0123", "sk\u{0}0123"] {
            do {
                _ = try openAIConfiguration(nil, environment: ["OPENAI_API_KEY": raw])
                Issue.record("\(raw.debugDescription) was accepted")
            } catch {
                #expect(error.kind == .invalidConfiguration)
                #expect(error.description.contains("OPENAI_API_KEY"))
                #expect(!error.description.contains("sk-"), "the key must not be quoted")
            }
        }
        // Only whitespace is no key at all.
        #expect(throws: TranscriptionError.self) {
            try openAIConfiguration(nil, environment: ["OPENAI_API_KEY": "\r\n"])
        }
        // A configuration made directly is trimmed the same way, and never sends a broken key.
        #expect(WhisperClient.Configuration(apiKey: " sk-direct\r").apiKey == "sk-direct")
    }

    @Test func everySecretOfTheConfigurationIsRedacted() throws {
        let configuration = try openAIConfiguration("http://user:s3cret%21pw@proxy.example/v1", environment: ["OPENAI_API_KEY": "sk-redact-me-0123"])
        // The request still goes to the URL with its credentials: libcurl turns them into basic auth.
        #expect(configuration.endpoint == "http://user:s3cret%21pw@proxy.example/v1/audio/transcriptions")
        #expect(configuration.shownBaseURL == "http://***@proxy.example/v1")
        #expect(!configuration.description.contains("s3cret"))
        let text = "key sk-redact-me-0123, url http://user:s3cret%21pw@proxy.example/v1, "
            + "encoded s3cret%21pw, decoded s3cret!pw, whole user:s3cret!pw, other https://a:b@elsewhere/x"
        let redacted = configuration.redact(text)
        for secret in ["sk-redact-me-0123", "s3cret", "a:b@"] { #expect(!redacted.contains(secret), "\(redacted)") }
        #expect(redacted.contains("http://***@proxy.example/v1") && redacted.contains("https://***@elsewhere/x"))
        // A server's message goes through the same function.
        let error = TranscriptionError.http(status: 500, body: Data(#"{"error":{"message":"bad auth s3cret!pw"}}"#.utf8),
                                            retryAfter: nil, secrets: configuration.secrets)
        #expect(!error.description.contains("s3cret") && error.description.contains("[redacted]"))
        // A token as the user name (https://TOKEN@host) is the secret itself.
        let token = WhisperClient.Configuration(baseURL: "https://ghp_token0123@host.example/v1", apiKey: nil)
        #expect(token.redact("sent ghp_token0123") == "sent [redacted]")
        #expect(token.shownBaseURL == "https://***@host.example/v1")
        // A base URL that is refused is not quoted with its credentials either.
        do {
            _ = try openAIConfiguration("ftp://user:s3cret@host/v1", environment: ["OPENAI_API_KEY": "k"])
            Issue.record("ftp accepted")
        } catch {
            #expect(!error.description.contains("s3cret") && error.description.contains("ftp://***@host/v1"))
        }
    }
}

/// The configuration of one base URL (nil: OpenAI's) with its key from `$OPENAI_API_KEY`: what
/// a command's settings hand over when no config-file endpoint is used.
func openAIConfiguration(_ baseURL: String?, environment: [String: String]) throws(TranscriptionError) -> WhisperClient.Configuration {
    try WhisperClient.Configuration.resolve(baseURL: baseURL ?? WhisperClient.Configuration.openAIBaseURL,
                                            keyVariable: "OPENAI_API_KEY", environment: environment,
                                            origin: "--base-url / OPENAI_BASE_URL")
}
