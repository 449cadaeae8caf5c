import Foundation
import Testing
import VoiceJournalSettings

/// The chat endpoint `reflect` asks: named by a flag, the environment or `[chat]`, never by
/// default, its key only ever through the environment.
@Suite struct ChatSettingsTests {
    private let path = "/etc/example/config.toml"
    private var configPath: Setting<String> { Setting(path, from: .builtIn) }

    @Test func nothingNamedMeansNoChatEndpoint() {
        let settings = resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: configPath)
        #expect(settings.chat == nil)
    }

    @Test func theTableIsReadAndTheFlagThenTheEnvironmentComeFirst() throws {
        let file = try ConfigFile.parse("""
            [chat]
            base_url = "http://127.0.0.1:8179/v1/"
            model = "SmolLM2-135M-Instruct"
            schema = "json_object"
            api_key_env = "MY_CHAT_KEY"
            price_input = 0.15
            price_output = 1
            context = 2048
            """, path: path, rules: .voiceJournal)
        let fromFile = try #require(resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath).chat)
        #expect(fromFile.baseURL == Setting("http://127.0.0.1:8179/v1", from: .configFile(path)))
        #expect(fromFile.model.value == "SmolLM2-135M-Instruct" && fromFile.schema == "json_object")
        #expect(fromFile.keyVariable == "MY_CHAT_KEY" && fromFile.prices == [0.15, 1] && fromFile.context == 2048)
        let environment = ["VOICEJOURNAL_CHAT_URL": "https://api.openai.com/v1", "VOICEJOURNAL_CHAT_MODEL": "gpt-4o-mini"]
        let fromEnvironment = try #require(resolved(flags: Settings.Flags(), environment: environment, file: file, configPath: configPath).chat)
        #expect(fromEnvironment.baseURL.source == .environment("VOICEJOURNAL_CHAT_URL") && fromEnvironment.model.value == "gpt-4o-mini")
        var flags = Settings.Flags()
        flags.chatURL = "http://127.0.0.1:9000/v1"
        let fromFlag = try #require(resolved(flags: flags, environment: environment, file: file, configPath: configPath).chat)
        #expect(fromFlag.baseURL == Setting("http://127.0.0.1:9000/v1", from: .flag("--chat-url")))
        // Without a table the key is read from VOICEJOURNAL_CHAT_API_KEY, and the model is the local server's.
        let bare = try #require(resolved(flags: flags, environment: [:], file: nil, configPath: configPath).chat)
        #expect(bare.keyVariable == "VOICEJOURNAL_CHAT_API_KEY" && bare.model.value == Settings.Chat.localModel && bare.context == nil)
    }

    @Test func automaticReflectionAndAPoolOfServersAreReadInPriorityOrder() throws {
        let file = try ConfigFile.parse("""
            [chat]
            model = "small"
            reflect = "auto"
            api_key_env = "CHAT_KEY"

            [[chat.endpoint]]
            base_url = "https://api.openai.com/v1"
            model = "gpt-4o-mini"
            priority = -1

            [[chat.endpoint]]
            base_url = "http://127.0.0.1:8179/v1/"
            price_input = 0
            price_output = 0

            [[chat.endpoint]]
            base_url = "http://10.0.0.2:8179/v1"
            """, path: path, rules: .voiceJournal)
        let settings = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: configPath)
        #expect(settings.autoReflect.value)
        let chat = try #require(settings.chat)
        // No base_url in [chat]: the most preferred server stands in for it; ties keep file order.
        #expect(chat.pool.map(\.baseURL) == ["http://127.0.0.1:8179/v1", "http://10.0.0.2:8179/v1", "https://api.openai.com/v1"])
        #expect(chat.pool.map(\.model) == ["small", "small", "gpt-4o-mini"])
        #expect(chat.pool.map(\.keyVariable) == ["CHAT_KEY", "CHAT_KEY", "CHAT_KEY"])
        #expect(chat.pool[0].prices == [0, 0] && chat.pool[1].prices == nil)
        // A URL from the environment is the only server: the user named where the words go.
        let named = try #require(resolved(flags: Settings.Flags(), environment: ["VOICEJOURNAL_CHAT_URL": "http://127.0.0.1:9/v1"],
                                          file: file, configPath: configPath).chat)
        #expect(named.pool.map(\.baseURL) == ["http://127.0.0.1:9/v1"])
        // record --reflect asks for one take; without either it is off.
        var flags = Settings.Flags()
        flags.reflect = true
        #expect(resolved(flags: flags, environment: [:], file: nil, configPath: configPath).autoReflect.value)
        #expect(!resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: configPath).autoReflect.value)
    }

    @Test(arguments: [
        ("[chat]\nschema = \"xml\"\n", "json_schema"),
        ("[chat]\nbase_url = \"ftp://x\"\n", "http(s) URL"),
        ("[chat]\napi_key = \"sk-123\"\n", "never written in the config file"),
        ("[chat]\nprice_input = -1\n", "0 or more dollars"),
        ("[chat]\nreflect = \"always\"\n", "\"auto\""),
        ("[chat]\nbase_url = \"http://a/v1\"\n\n[[chat.endpoint]]\nmodel = \"m\"\n", "[[chat.endpoint]] needs a base_url"),
        ("[chat]\nbase_url = \"http://a/v1\"\n\n[[chat.endpoint]]\nbase_url = \"http://b/v1\"\nreflect = \"auto\"\n",
         "unknown key \"reflect\" in [[chat.endpoint]] 1"),
        ("[chat]\nbase_url = \"http://a/v1\"\npriority = 2\n", "unknown key \"priority\" in [chat]"),
        ("[chat]\ncontext = 512\n", "from 1024"),
        ("[chat]\ncontext = \"big\"\n", "whole number of tokens"),
        ("chat = 3\n", "a table ([chat])"),
    ])
    func aWrongValueIsRefusedOnItsLine(text: String, words: String) {
        do {
            _ = try ConfigFile.parse(text, path: path, rules: .voiceJournal)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.description.contains(words), "\(error.description)")
        }
    }
}
