import Foundation
import Testing
import VoiceJournalTestSupport

/// A journal's vocabulary goes to the server as the `prompt` field with that journal's
/// uploads, and only with them.
@Suite(.onTestThreads) struct VocabularyTests {
    @Test func addingAWordAlreadyThereSaysSo() throws {
        let harness = try TranscribeHarness()
        _ = try harness.succeed(["vocabulary", "add", "Anneliese"])
        #expect(try harness.succeed(["vocabulary", "add", "Anneliese", "Jörg"]).stdout
                == "Added 1 word to the vocabulary of Personal (already there: Anneliese).\n")
        #expect(try harness.succeed(["vocabulary", "add", "Jörg"]).stdout == "Added 0 words to the vocabulary of Personal (already there: Jörg).\n")
    }

    @Test func theStubReceivesAJournalsVocabularyInThePromptOfThatJournalsUploadsOnly() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC", "VOICEJOURNAL_NOW": "2026-11-23T12:00:00Z"])
        let cli = harness.binary
        _ = try harness.succeed(["journal", "create", "Family"])
        _ = try harness.succeed(["journal", "create", "Work"])
        #expect(try harness.succeed(["vocabulary", "add", "Anneliese", "Jörg", "--journal", "Family"]).stdout
                == "Added 2 words to the vocabulary of Family.\n")
        _ = try harness.succeed(["vocabulary", "add", "Acme GmbH", "--journal", "Family"])
        _ = try harness.succeed(["vocabulary", "add", "Kubernetes", "--journal", "Work"])
        _ = try harness.succeed(["vocabulary", "remove", "Kubernetes", "--journal", "Work"])
        let missing = try cli.run(["vocabulary", "remove", "Kubernetes", "--journal", "Work"])
        #expect(missing.status == 2 && missing.stderr.contains("\"Kubernetes\" is not in the vocabulary of Work"))
        let listed = try #require(try harness.succeed(["vocabulary", "list", "--journal", "Family", "--json"]).json() as? [[String: Any]])
        #expect(listed.compactMap { $0["word"] as? String } == ["Acme GmbH", "Jörg", "Anneliese"], "most recent first")

        for (journal, name) in [("Family", "family"), ("Work", "work")] {
            _ = try harness.succeed(["transcribe", harness.tones(["\(name).wav"], in: name).path, "--journal", journal])
        }
        _ = try harness.succeed(["transcribe", harness.tones(["loose.wav"], in: "loose").path])
        // A run's own --prompt comes first; the vocabulary follows.
        _ = try harness.succeed(["transcribe", harness.tones(["more.wav"], in: "more").path, "--journal", "Family",
                                 "--prompt", "A family dinner."])

        let prompts = Dictionary(try harness.server.requests().map { ($0.file?.filename ?? "?", $0.field("prompt")) },
                                 uniquingKeysWith: { first, _ in first })
        #expect(prompts.count == 4)
        #expect(prompts["family.wav"] == .some("Acme GmbH, Jörg, Anneliese."))
        #expect(prompts["work.wav"] == .some(nil), "Work's vocabulary is empty")
        #expect(prompts["loose.wav"] == .some(nil), "a file in no journal has no vocabulary")
        #expect(prompts["more.wav"] == .some("A family dinner. Acme GmbH, Jörg, Anneliese."))
    }
}
