import Foundation
import Testing
import VoiceJournalTestSupport

extension VoicejournalBinary {
    /// Runs `voicejournal` and expects it to succeed (its stderr is shown when it does not).
    @discardableResult
    func expectSuccess(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let result = try run(arguments, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }
}

extension CommandResult {
    /// The `id` of the JSON object a `--json` command printed.
    func jsonID() throws -> Int {
        try #require((try json() as? [String: Any])?["id"] as? Int, "\(stderr)")
    }
}
