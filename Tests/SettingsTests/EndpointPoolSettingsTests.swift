import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalBatch
import VoiceJournalSettings
import Testing
import VoiceJournalTranscription

/// The endpoint pool and a run's options, resolved from the settings once for any program.
@Suite struct EndpointPoolSettingsTests {
    private let path = "/etc/example/config.toml"
    private let logger = Logger(label: "test")

    func settings(_ endpoints: [EndpointTable], environment: [String: String] = [:]) -> Settings {
        resolved(flags: Settings.Flags(), environment: environment, file: ConfigFile(path: path, endpoints: endpoints),
                 configPath: Setting(path, from: .builtIn))
    }

    @Test func eachUsableEndpointOfTheFileIsInThePoolAndTheOthersAreSaidWhy() throws {
        let pool = try settings([
            EndpointTable(baseURL: "http://127.0.0.1:1/v1", concurrency: 2, priority: 1),
            EndpointTable(baseURL: "https://overflow.example/v1", apiKeyVariable: "OVERFLOW_KEY", concurrency: 8),
        ]).endpointPool(jobs: nil, environment: [:], logger: logger)
        #expect(pool.endpoints.map(\.name) == ["http://127.0.0.1:1/v1"])
        #expect(pool.workers == 2)
        #expect(pool.leftOut.count == 1 && pool.leftOut[0].hasPrefix("endpoint https://overflow.example/v1 is left out of this run: "))
    }

    @Test func noUsableEndpointIsAConfigurationErrorNamingTheFirstProblem() {
        let remote = EndpointTable(baseURL: "https://a.example/v1", apiKeyVariable: "A_KEY")
        let other = EndpointTable(baseURL: "https://b.example/v1", apiKeyVariable: "B_KEY")
        #expect { try settings([remote, other]).endpointPool(jobs: nil, environment: [:], logger: logger) } throws: { error in
            guard let error = error as? TranscriptionError else { return false }
            return error.kind == .invalidConfiguration && error.description.hasPrefix("no endpoint of the config file can be used; the first: ")
        }
    }

    @Test func theEnvironmentShortensBackoffAndLeasesForTests() {
        let plain = settings([]).runnerOptions(prompt: "Names", trim: false, environment: [:])
        #expect(plain.transcription.prompt == "Names" && !plain.upload.trim)
        let short = settings([]).runnerOptions(prompt: nil, trim: true,
                                               environment: ["VOICEJOURNAL_RETRY_BASE": "0.05", "VOICEJOURNAL_LEASE_SECONDS": "2"])
        #expect(short.retry.base == 0.05 && short.lease == 2)
        let ignored = settings([]).runnerOptions(prompt: nil, trim: true, environment: ["VOICEJOURNAL_RETRY_BASE": "-1"])
        #expect(ignored.retry.base == plain.retry.base)
    }
}
