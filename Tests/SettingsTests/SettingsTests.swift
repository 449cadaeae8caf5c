import Foundation
import VoiceJournalBatch
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalQueue
import Testing
import VoiceJournalTranscription

/// Settings resolved by voicejournal's rules, for a data home they do not look at.
func resolved(flags: Settings.Flags, environment: [String: String], file: ConfigFile?, configPath: Setting<String>,
              runningServe: Settings.RunningServe? = nil) -> Settings {
    Settings(flags: flags, environment: environment, rules: .voiceJournal, home: "/home/me/.local/share/voicejournal", file: file,
             configPath: configPath, runningServe: runningServe)
}

/// The config file's reading and the one precedence rule, without running the binary.
@Suite struct SettingsTests {
    private let path = "/etc/example/config.toml"

    @Test func readsEveryDefaultAndEndpointKey() throws {
        let file = try ConfigFile.parse("""
            [defaults]
            journal = "Oral history"
            device = "hw:1,0"
            rate = 48000
            model = "whisper-1"
            language = "DE"
            upload_codec = "opus"
            max_chunk_seconds = 300   # an integer is a number of seconds too
            max_request_bytes = 1000000

            [[endpoint]]
            base_url = "http://127.0.0.1:8178/v1"
            model = "tiny.en"
            concurrency = 2
            priority = 1

            [[endpoint]]
            base_url = "https://api.openai.com/v1"
            api_key_env = "OPENAI_API_KEY"
            """, path: path, rules: .voiceJournal)
        var defaults = ConfigFile.Defaults()
        defaults.journal = "Oral history"
        defaults.device = "hw:1,0"
        defaults.rate = 48000
        defaults.model = "whisper-1"
        defaults.language = "de"
        defaults.uploadCodec = "opus"
        defaults.maxChunkSeconds = 300
        defaults.maxRequestBytes = 1_000_000
        #expect(file.defaults == defaults)
        #expect(file.endpoints == [
            EndpointTable(baseURL: "http://127.0.0.1:8178/v1", model: "tiny.en", concurrency: 2, priority: 1, line: 11),
            EndpointTable(baseURL: "https://api.openai.com/v1", apiKeyVariable: "OPENAI_API_KEY", line: 17),
        ])
    }

    @Test func linesAreCountedPastMultiLineStringsAndArrays() throws {
        let text = """
            [defaults]
            model = \"\"\"
            modle = "inside a string, not a key"
            \"\"\"
            modle = "y"
            """
        #expect(throws: ConfigError(kind: .unknownKey, path: path, line: 5, message: "unknown key \"modle\" in [defaults]")) {
            try ConfigFile.parse(text, path: path, rules: .voiceJournal)
        }
    }

    @Test(arguments: [
        ("[defaults]\nrate = 12\n", ConfigError.Kind.invalidValue, 2),
        ("[defaults]\nlanguage = \"english\"\n", .invalidValue, 2),
        ("[defaults]\nupload_codec = \"wav\"\n", .invalidValue, 2),
        ("[[endpoint]]\nbase_url = \"ftp://x\"\n", .invalidValue, 2),
        ("[[endpoint]]\nbase_url = \"http://x\"\napi_key_env = \"sk-abc\"\n", .invalidValue, 3),
        ("[[endpoint]]\nbase_url = \"http://x\"\ntoken = \"abc\"\n", .keyInFile, 3),
        ("endpoint = 3\n", .wrongType, 1),
        ("[defaults]\npublic_url = \"journal.example.org\"\n", .invalidValue, 2),
        ("[defaults\n", .syntax, 1),
    ])
    func refusesValuesThatCannotWork(text: String, kind: ConfigError.Kind, line: Int) {
        do {
            _ = try ConfigFile.parse(text, path: path, rules: .voiceJournal)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.line == line)
        }
    }

    @Test func flagBeatsEnvironmentBeatsFileBeatsDefault() {
        var file = ConfigFile(path: path)
        file.defaults.model = "file-model"
        file.defaults.rate = 44100
        var flags = Settings.Flags()
        flags.model = "flag-model"
        let configPath = Setting(path, from: .flag("--config"))
        let environment = ["VOICEJOURNAL_MODEL": "env-model"]

        let all = resolved(flags: flags, environment: environment, file: file, configPath: configPath)
        #expect(all.model == Setting("flag-model", from: .flag("--model")))
        let noFlag = resolved(flags: Settings.Flags(), environment: environment, file: file, configPath: configPath)
        #expect(noFlag.model == Setting("env-model", from: .environment("VOICEJOURNAL_MODEL")))
        let fileOnly = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath)
        #expect(fileOnly.model == Setting("file-model", from: .configFile(path)))
        #expect(fileOnly.rate == Setting(44100, from: .configFile(path)))
        let nothing = resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: configPath)
        #expect(nothing.model == Setting("whisper-1", from: .builtIn))
        #expect(nothing.jobs == Setting(4, from: .builtIn))
    }

    @Test func theAnswerLinkUsesThePublicURLFromFlagEnvironmentFileOrDefault() throws {
        let file = try ConfigFile.parse("[defaults]\npublic_url = \"https://journal.example.org/\"\nasked_by = \"Sam\"\n", path: path, rules: .voiceJournal)
        let configPath = Setting(path, from: .flag("--config"))
        var flags = Settings.Flags()
        flags.publicURL = "https://tunnel.example.net/"
        let environment = ["VOICEJOURNAL_PUBLIC_URL": "http://192.0.2.7:8787"]
        let token = "0123456789abcdef0123456789abcdef"

        let flagged = resolved(flags: flags, environment: environment, file: file, configPath: configPath)
        #expect(flagged.answerLink(token: token) == "https://tunnel.example.net/a/\(token)")
        let fromEnvironment = resolved(flags: Settings.Flags(), environment: environment, file: file, configPath: configPath)
        #expect(fromEnvironment.publicURL == Setting("http://192.0.2.7:8787", from: .environment("VOICEJOURNAL_PUBLIC_URL")))
        let fromFile = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath)
        #expect(fromFile.answerLink(token: token) == "https://journal.example.org/a/\(token)")
        #expect(fromFile.askedBy == Setting("Sam", from: .configFile(path)))
        let nothing = resolved(flags: Settings.Flags(), environment: ["VOICEJOURNAL_PUBLIC_URL": "not a url"], file: nil, configPath: configPath)
        #expect(nothing.answerLink(token: token) == "http://127.0.0.1:8787/a/\(token)")
        #expect(nothing.askedBy == Setting(nil, from: .builtIn))
    }

    @Test func aRunningServesLinksComeAfterTheFlagAndTheEnvironmentAndBeforeTheConfigFile() throws {
        let file = try ConfigFile.parse("[defaults]\npublic_url = \"https://journal.example.org\"\n", path: path, rules: .voiceJournal)
        let configPath = Setting(path, from: .flag("--config"))
        let serve = Settings.RunningServe(pid: 4242, links: "http://127.0.0.1:9000")
        var flags = Settings.Flags()
        flags.publicURL = "https://tunnel.example.net"
        let flagged = resolved(flags: flags, environment: [:], file: file, configPath: configPath, runningServe: serve)
        #expect(flagged.publicURL == Setting("https://tunnel.example.net", from: .flag("--public-url")))
        let environment = ["VOICEJOURNAL_PUBLIC_URL": "http://192.0.2.7:8787"]
        let fromEnvironment = resolved(flags: Settings.Flags(), environment: environment, file: file, configPath: configPath, runningServe: serve)
        #expect(fromEnvironment.publicURL.source == .environment("VOICEJOURNAL_PUBLIC_URL"))
        let following = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath, runningServe: serve)
        #expect(following.publicURL == Setting("http://127.0.0.1:9000", from: .runningServe(pid: 4242)))
        #expect(following.answerLink(token: "abc") == "http://127.0.0.1:9000/a/abc")
        #expect(following.publicURL.source.description == "running serve, pid 4242")
        let withoutFile = resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: configPath, runningServe: serve)
        #expect(withoutFile.publicURL.source == .runningServe(pid: 4242))
    }

    @Test func translateComesFromTheFlagElseTheFileElseIsOff() throws {
        let file = try ConfigFile.parse("[defaults]\ntranslate = true\n", path: path, rules: .voiceJournal)
        let configPath = Setting(path, from: .flag("--config"))
        let fromFile = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath)
        #expect(fromFile.translate == Setting(true, from: .configFile(path)))
        #expect(fromFile.runnerOptions(prompt: nil, trim: true, environment: [:]).translate)
        var flags = Settings.Flags()
        flags.translate = true
        let flagged = resolved(flags: flags, environment: [:], file: nil, configPath: configPath)
        #expect(flagged.translate == Setting(true, from: .flag("--translate")))
        let nothing = resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: configPath)
        #expect(nothing.translate == Setting(false, from: .builtIn))
        #expect(!nothing.runnerOptions(prompt: nil, trim: true, environment: [:]).translate)
        #expect(throws: ConfigError.self) { try ConfigFile.parse("[defaults]\ntranslate = \"yes\"\n", path: path, rules: .voiceJournal) }
    }

    @Test func theFileEndpointsArePooledWithTheFirstOfTheHighestPriorityShownUnlessTheEnvironmentNamesOne() throws {
        let file = ConfigFile(path: path, endpoints: [
            EndpointTable(baseURL: "https://overflow.example/v1", apiKeyVariable: "OVERFLOW_KEY", concurrency: 8, priority: -1),
            EndpointTable(baseURL: "http://127.0.0.1:1/v1", model: "first-local", concurrency: 2, priority: 1),
            EndpointTable(baseURL: "http://127.0.0.1:2/v1", concurrency: 3, priority: 1),
        ])
        let configPath = Setting(path, from: .builtIn)
        let settings = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath)
        #expect(settings.endpoint.baseURL.value == "http://127.0.0.1:1/v1")
        #expect(settings.model == Setting("first-local", from: .configFile(path)))
        #expect(settings.jobs == Setting(13, from: .configFile(path)), "the pool's concurrency in all")
        #expect(try settings.clientConfiguration(environment: [:]).baseURL == "http://127.0.0.1:1/v1")

        let overridden = resolved(flags: Settings.Flags(), environment: ["OPENAI_BASE_URL": "http://127.0.0.1:9/v1"],
                                  file: file, configPath: configPath)
        #expect(overridden.endpoint.fromFile == nil)
        #expect(overridden.endpoint.keyVariable == "OPENAI_API_KEY")
        #expect(overridden.model == Setting("whisper-1", from: .builtIn))
        #expect(overridden.jobs == Setting(4, from: .builtIn))
    }

    @Test func theBaseURLComesFromTheFlagThenTheEnvironmentAndALocalServerNeedsNoKey() throws {
        let configPath = Setting(path, from: .builtIn)
        let environment = ["OPENAI_BASE_URL": "http://localhost:8000/v1/"]
        let local = try resolved(flags: Settings.Flags(), environment: environment, file: nil, configPath: configPath)
            .clientConfiguration(environment: environment)
        #expect(local.endpoint == "http://localhost:8000/v1/audio/transcriptions")
        #expect(!local.hasAPIKey)
        var flags = Settings.Flags()
        flags.baseURL = "http://127.0.0.1:9/v1"
        let both = ["OPENAI_BASE_URL": "https://elsewhere/v1", "VOICEJOURNAL_HTTP_TIMEOUT": "1.5"]
        let flagWins = try resolved(flags: flags, environment: both, file: nil, configPath: configPath)
            .clientConfiguration(environment: both)
        #expect(flagWins.baseURL == "http://127.0.0.1:9/v1")
        #expect(flagWins.timeout == 1.5)
    }

    @Test func aRemoteEndpointWhoseKeyVariableIsUnsetIsAConfigurationError() {
        let remote = EndpointConfig(baseURL: "https://overflow.example/v1", apiKeyVariable: "OVERFLOW_KEY")
        #expect(throws: TranscriptionError.self) { try remote.clientConfiguration(environment: [:]) }
        #expect(throws: Never.self) { try remote.clientConfiguration(environment: ["OVERFLOW_KEY": "sk-1"]) }
        let keyless = EndpointConfig(baseURL: "https://overflow.example/v1")
        #expect(throws: TranscriptionError.self) { try keyless.clientConfiguration(environment: ["OPENAI_API_KEY": "sk-1"]) }
    }
}
