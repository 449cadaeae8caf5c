import Foundation
import Testing
import VoiceJournalTestSupport

/// What a test runs voicejournal through: the binary itself, or a harness around it.
protocol RunsVoicejournal {
    var voicejournal: VoicejournalBinary { get }
}

extension RunsVoicejournal {
    /// Runs `voicejournal` and expects it to succeed (the arguments and stderr are shown if not).
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let result = try voicejournal.run(arguments, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }
}

extension VoicejournalBinary: RunsVoicejournal {
    var voicejournal: VoicejournalBinary { self }
}

extension TranscribeHarness: RunsVoicejournal {
    var voicejournal: VoicejournalBinary { binary }
}

extension CommandResult {
    /// The `id` of the JSON object a `--json` command printed.
    func jsonID() throws -> Int {
        try #require((try json() as? [String: Any])?["id"] as? Int, "\(stderr)")
    }
}
