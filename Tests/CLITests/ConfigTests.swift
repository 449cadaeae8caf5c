import Foundation
import Testing
import VoiceJournalTestSupport

/// The config file and the precedence of settings: flag, then environment, then config
/// file, then built-in default; `config show` and the errors of a bad file.
@Suite(.onTestThreads) struct ConfigTests {
    /// The model each upload asked for, in order.
    private func models(_ server: StubWhisperServer) throws -> [String?] {
        try server.requests().map { $0.field("model") }
    }

    @Test func modelComesFromTheFlagThenTheEnvironmentThenTheConfigFileThenTheDefault() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(4)
        let clip = { (index: Int) in dir.appendingPathComponent("clip0\(index).wav").path }

        #expect(try harness.binary.run(["transcribe", clip(0)]).status == 0)
        try harness.binary.writeConfig("""
            [defaults]
            model = "model-from-file"
            """)
        #expect(try harness.binary.run(["transcribe", clip(1)]).status == 0)
        let withEnvironment = ["VOICEJOURNAL_MODEL": "model-from-env"]
        #expect(try harness.binary.run(["transcribe", clip(2)], environment: withEnvironment).status == 0)
        let result = try harness.binary.run(["transcribe", clip(3), "--model", "model-from-flag"], environment: withEnvironment)
        #expect(result.status == 0, "\(result.stderr)")

        #expect(try models(harness.server) == ["whisper-1", "model-from-file", "model-from-env", "model-from-flag"])
    }

    @Test func baseURLComesFromTheFlagThenTheEnvironmentThenTheConfigFileThenTheDefault() throws {
        let harness = try TranscribeHarness()  // its server is the one the environment names
        let fileServer = try StubWhisperServer()
        let flagServer = try StubWhisperServer()
        let dir = try harness.audio(3)
        let clip = { (index: Int) in dir.appendingPathComponent("clip0\(index).wav").path }
        try harness.binary.writeConfig("""
            [[endpoint]]
            base_url = "\(fileServer.baseURL)"
            model = "file-endpoint-model"
            concurrency = 2
            """)
        let noEnvironment = ["OPENAI_BASE_URL": ""]

        let fromFile = try harness.binary.run(["transcribe", clip(0)], environment: noEnvironment)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try harness.binary.run(["transcribe", clip(1)]).status == 0)
        #expect(try harness.binary.run(["transcribe", clip(2), "--base-url", flagServer.baseURL]).status == 0)

        // The file's endpoint brings its own model; other servers get the run's default.
        #expect(try models(fileServer) == ["file-endpoint-model"])
        #expect(try models(harness.server) == ["whisper-1"])
        #expect(try models(flagServer) == ["whisper-1"])

        // Without flag, variable or file: OpenAI's API, which is only looked at, never called.
        try FileManager.default.removeItem(at: harness.binary.configFolder)
        let shown = try harness.binary.run(["config", "show", "--json"], environment: noEnvironment)
        #expect(shown.status == 0, "\(shown.stderr)")
        let baseURL = try setting("base_url", in: shown)
        #expect(baseURL["value"] as? String == "https://api.openai.com/v1")
        #expect(baseURL["source"] as? String == "default")
    }

    @Test func configShowSaysWhereEachSettingCameFromAndTheJobsFollowTheEndpoint() throws {
        let folder = try TemporaryFolder("vj-config")
        let binary = VoicejournalBinary(home: folder.path("home"), environment: ["OPENAI_BASE_URL": "", "VOICEJOURNAL_MODEL": ""])
        let path = try binary.writeConfig("""
            [defaults]
            journal = "Family stories"
            rate = 48000
            upload_codec = "opus"

            [[endpoint]]
            base_url = "https://api.openai.com/v1"
            api_key_env = "OPENAI_API_KEY"
            concurrency = 8

            [[endpoint]]
            base_url = "http://127.0.0.1:8000/v1"
            concurrency = 2
            priority = 1
            """).path
        let result = try binary.run(["config", "show", "--json", "--rate", "22050"], environment: ["VOICEJOURNAL_MODEL": "from-env"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected: [String: (value: String, source: String, origin: String?)] = [
            "journal": ("Family stories", "config file", path),
            "rate": ("22050", "flag", "--rate"),
            "model": ("from-env", "environment", "VOICEJOURNAL_MODEL"),
            "upload_codec": ("opus", "config file", path),
            "device": ("default", "default", nil),
            // The first endpoint of the highest priority; the pool's concurrency in all.
            "base_url": ("http://127.0.0.1:8000/v1", "config file", path),
            "jobs": ("10", "config file", path),
        ]
        for (name, want) in expected {
            let got = try setting(name, in: result)
            #expect(got["value"] as? String == want.value, "\(name)")
            #expect(got["source"] as? String == want.source, "\(name)")
            #expect(got["origin"] as? String == want.origin, "\(name)")
        }
        let human = try binary.run(["config", "show"])
        #expect(human.stdout.contains("config file: \(path)"))
        #expect(human.stdout.contains("Family stories  [config file \(path)]"))
    }

    @Test func newEntriesGoToTheConfigFilesJournalUnlessTheFlagSaysOtherwise() throws {
        let folder = try TemporaryFolder("vj-config")
        let binary = VoicejournalBinary(home: folder.path("home"))
        #expect(try binary.run(["journal", "create", "Family stories"]).status == 0)
        try binary.writeConfig("[defaults]\njournal = \"Family stories\"\n")
        let fromFile = try binary.run(["entry", "add", "--text", "Grandma's recipe"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout.contains("to Family stories."))
        let fromFlag = try binary.run(["entry", "add", "--text", "A walk", "--journal", "Personal"])
        #expect(fromFlag.stdout.contains("to Personal."))
    }

    @Test func configShowNeverPrintsAKey() throws {
        let folder = try TemporaryFolder("vj-config")
        let keys = ["OPENAI_API_KEY": "sk-FAKE-env-key-7f3a9c", "REMOTE_WHISPER_KEY": "sk-FAKE-file-key-b81d2e"]
        let binary = VoicejournalBinary(home: folder.path("home"), environment: keys.merging(["OPENAI_BASE_URL": ""]) { $1 })
        try binary.writeConfig("""
            [[endpoint]]
            base_url = "https://listener:pw-FAKE-in-url-5c1e@whisper.example.net/v1"
            api_key_env = "REMOTE_WHISPER_KEY"
            concurrency = 3

            [[endpoint]]
            base_url = "https://api.openai.com/v1"
            api_key_env = "OPENAI_API_KEY"
            priority = -1
            """)
        for arguments in [["config", "show"], ["config", "show", "--json"]] {
            let result = try binary.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            for secret in Array(keys.values) + ["pw-FAKE-in-url-5c1e"] {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(arguments) printed \(secret)")
            }
            #expect(result.stdout.contains("REMOTE_WHISPER_KEY"))
        }
        let text = try binary.run(["config", "show"]).stdout
        #expect(text.contains("REMOTE_WHISPER_KEY set"))
        #expect(text.contains("key OPENAI_API_KEY set"))
        let unset = try binary.run(["config", "show"], environment: ["REMOTE_WHISPER_KEY": ""]).stdout
        #expect(unset.contains("REMOTE_WHISPER_KEY unset"))
    }

    @Test func aMalformedConfigFileExits3NamingTheFileAndLine() throws {
        let harness = try TranscribeHarness()
        let dir = try harness.audio(1)
        let path = try harness.binary.writeConfig("""
            # voicejournal settings
            [defaults]
            model = "whisper-1"
            language = "en
            """).path
        for arguments in [["config", "show"], ["transcribe", dir.path], ["queue", "run"]] {
            let result = try harness.binary.run(arguments)
            #expect(result.status == 3, "\(arguments)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("voicejournal: \(path) line 4: "), "\(result.stderr)")
        }
        #expect(try harness.server.requests().isEmpty)
    }

    @Test(arguments: [
        ("[defaults]\nmodel = \"x\"\nmodle = \"y\"\n", "line 3: unknown key \"modle\" in [defaults]"),
        ("model = \"x\"\n", "line 1: unknown key \"model\" at the top level; put it under [defaults]"),
        ("[defaults]\n\n[[endpoint]]\nbase_url = \"http://127.0.0.1:9/v1\"\nconcurency = 2\n",
         "line 5: unknown key \"concurency\" in [[endpoint]] 1"),
        ("[defaults]\nrate = \"fast\"\n", "line 2: \"rate\" in [defaults] must be an integer, not a string"),
        ("[[endpoint]]\nbase_url = \"http://127.0.0.1:9/v1\"\nconcurrency = 2.5\n",
         "line 3: \"concurrency\" in [[endpoint]] 1 must be an integer, not a floating-point number"),
        ("[[endpoint]]\nconcurrency = 2\n", "line 1: [[endpoint]] needs a base_url"),
    ])
    func anUnknownKeyOrWrongTypeExits3NamingTheFileAndLine(text: String, expected: String) throws {
        let folder = try TemporaryFolder("vj-config")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let path = try binary.writeConfig(text).path
        let result = try binary.run(["config", "show"])
        #expect(result.status == 3)
        #expect(result.stderr == "voicejournal: \(path) \(expected)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aKeyWrittenInTheFileIsRefusedWithoutRepeatingIt() throws {
        let folder = try TemporaryFolder("vj-config")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let path = try binary.writeConfig("""
            [[endpoint]]
            base_url = "https://api.openai.com/v1"
            api_key = "sk-FAKE-written-in-file-42"
            """).path
        let result = try binary.run(["config", "show"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("voicejournal: \(path) line 3: "))
        #expect(result.stderr.contains("api_key_env"))
        #expect(!result.stderr.contains("sk-FAKE-written-in-file-42"))
    }

    @Test func aMissingDefaultFileMeansDefaultsButAMissingConfigFlagFileExits3() throws {
        let folder = try TemporaryFolder("vj-config")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let fine = try binary.run(["config", "show"])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(fine.stdout.contains("not found"))
        let missing = folder.path("elsewhere.toml").path
        let result = try binary.run(["--config", missing, "config", "show"])
        #expect(result.status == 3)
        #expect(result.stderr == "voicejournal: \(missing): no such file\n")
    }

    /// One setting of `config show --json`.
    private func setting(_ name: String, in result: CommandResult) throws -> [String: Any] {
        let json = try #require(try result.json() as? [String: Any])
        let settings = try #require(json["settings"] as? [[String: Any]])
        return try #require(settings.first { $0["name"] as? String == name })
    }
}
