import Testing
@testable import VoiceJournalTranscription

/// A journal's vocabulary in the prompt: most recent first, within whisper-1's 224 tokens.
@Suite struct VocabularyPromptTests {
    @Test func wordsGoMostRecentFirstAfterTheRunsOwnPrompt() {
        #expect(VocabularyPrompt.prompt(["Acme GmbH", "Jörg", "Anneliese"], after: nil) == "Acme GmbH, Jörg, Anneliese.")
        #expect(VocabularyPrompt.prompt(["Jörg"], after: "Family dinner.") == "Family dinner. Jörg.")
        #expect(VocabularyPrompt.prompt([], after: nil) == nil)
        let options = TranscriptionOptions(prompt: nil).adding(vocabulary: ["Jörg"])
        #expect(TranscriptionRequest(file: .init(fileURLWithPath: "/a.wav"), options: options).fields
            .contains { $0.name == "prompt" && $0.value == "Jörg." })
    }

    @Test func thePromptNeverHoldsMoreBytesThanTheTokenBudgetSoTheNewestWordsAreNeverCut() {
        // 40 names of 10 bytes: only the newest fit, and the prompt's bytes bound its tokens.
        let words = (0..<40).map { String(format: "Name%06d", $0) }
        let prompt = VocabularyPrompt.prompt(words, after: nil) ?? ""
        #expect(prompt.utf8.count <= VocabularyPrompt.tokenBudget)
        #expect(prompt.hasPrefix("Name000000, Name000001,"))
        #expect(VocabularyPrompt.fitting(words, after: nil).count == 18)
        // A long run prompt leaves no room; it is sent whole.
        let long = String(repeating: "x", count: 230)
        #expect(VocabularyPrompt.prompt(words, after: long) == long)
    }
}
