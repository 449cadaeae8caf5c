import Foundation
import VoiceJournalPages
import VoiceJournalBatch
import VoiceJournalSettings
import VoiceJournalStore
import Testing
import VoiceJournalTranscription

/// `config show` as the library words it: each setting with where it came from, and keys only
/// as set or unset (the lines `ConfigTests` reads from the command).
@Suite struct ShownSettingsTests {
    private let path = "/home/me/.config/voicejournal/config.toml"

    @Test func eachSettingShowsItsValueAndWhereItCameFrom() throws {
        let file = try ConfigFile.parse("[defaults]\njournal = \"Family stories\"\nrate = 48000\n", path: path, rules: .voiceJournal)
        var flags = Settings.Flags()
        flags.rate = 22050
        let settings = resolved(flags: flags, environment: ["VOICEJOURNAL_MODEL": "from-env"], file: file,
                                configPath: Setting(path, from: .builtIn))
        let shown = ShownSettings(settings, environment: [:])
        let byName = Dictionary(uniqueKeysWithValues: shown.settings.map { ($0.name, $0) })
        #expect(byName["journal"]?.value == "Family stories" && byName["journal"]?.source == "config file"
                && byName["journal"]?.origin == path)
        #expect(byName["rate"]?.value == "22050" && byName["rate"]?.source == "flag" && byName["rate"]?.origin == "--rate")
        #expect(byName["model"]?.source == "environment" && byName["model"]?.origin == "VOICEJOURNAL_MODEL")
        #expect(byName["device"]?.value == "default" && byName["device"]?.source == "default" && byName["device"]?.origin == nil)
        let text = shown.lines().joined(separator: "\n")
        #expect(text.hasPrefix("config file: \(path)  [default]"))
        #expect(text.contains("Family stories  [config file \(path)]"))
        #expect(text.contains("language           (detected)  [default]"))
    }

    @Test func aPublicURLFromARunningServeNamesItsProcess() {
        let serve = Settings.RunningServe(pid: 1234, links: "http://127.0.0.1:9000")
        let settings = resolved(flags: Settings.Flags(), environment: [:], file: nil, configPath: Setting(path, from: .builtIn),
                                runningServe: serve)
        let shown = ShownSettings(settings, environment: [:])
        let publicURL = shown.settings.first { $0.name == "public_url" }
        #expect(publicURL?.source == "running serve" && publicURL?.origin == "pid 1234")
        #expect(shown.lines().contains { $0.hasPrefix("public_url") && $0.hasSuffix("http://127.0.0.1:9000  [running serve, pid 1234]") })
    }

    @Test func keysAreShownOnlyAsSetOrUnsetAndCredentialsInAddressesNever() throws {
        let file = ConfigFile(path: path, endpoints: [
            EndpointTable(baseURL: "https://listener:pw-FAKE-in-url-5c1e@whisper.example.net/v1", apiKeyVariable: "REMOTE_WHISPER_KEY",
                           concurrency: 3),
            EndpointTable(baseURL: "https://api.openai.com/v1", apiKeyVariable: "OPENAI_API_KEY", priority: -1),
        ])
        let environment = ["OPENAI_API_KEY": "sk-FAKE-env-key-7f3a9c", "REMOTE_WHISPER_KEY": "sk-FAKE-file-key-b81d2e"]
        let settings = resolved(flags: Settings.Flags(), environment: [:], file: file, configPath: Setting(path, from: .flag("--config")))
        let text = ShownSettings(settings, environment: environment).lines().joined(separator: "\n")
        for secret in Array(environment.values) + ["pw-FAKE-in-url-5c1e"] { #expect(!text.contains(secret)) }
        #expect(text.contains("REMOTE_WHISPER_KEY set"))
        #expect(text.contains("key OPENAI_API_KEY set"))
        #expect(text.contains("endpoints in the config file (runs spread their uploads over them, higher priority first):"))
        let unset = ShownSettings(settings, environment: ["OPENAI_API_KEY": "sk-FAKE-env-key-7f3a9c"]).lines().joined(separator: "\n")
        #expect(unset.contains("REMOTE_WHISPER_KEY unset"))
    }
}
