/// A journal's vocabulary (names and terms it keeps hearing) turned into the `prompt` field,
/// so the model spells them right.
///
/// whisper-1 reads only the last 224 tokens of a prompt and drops what comes before. The
/// words go most recent first and are kept only while the whole prompt surely fits: Whisper's
/// byte-level tokenizer never makes more tokens than a text has UTF-8 bytes, so the prompt
/// is kept within 224 bytes. A prompt given for the run (`--prompt`) comes first and is
/// never cut; the vocabulary gets what room it leaves.
package enum VocabularyPrompt {
    /// The model's prompt budget in tokens (whisper-1's).
    package static let tokenBudget = 224

    /// The words that fit, most recent first, after `runPrompt`'s share of the budget.
    package static func fitting(_ words: [String], after runPrompt: String?) -> [String] {
        var used = runPrompt.map { $0.isEmpty ? 0 : $0.utf8.count + 1 } ?? 0
        var kept: [String] = []
        for word in words {
            // ", " between words, "." after the last: at most two bytes each.
            let cost = word.utf8.count + 2
            guard used + cost <= tokenBudget else { break }
            kept.append(word)
            used += cost
        }
        return kept
    }

    /// The prompt to send: the run's prompt, then the vocabulary that fits ("Anneliese, Jörg.").
    package static func prompt(_ words: [String], after runPrompt: String?) -> String? {
        let kept = fitting(words, after: runPrompt)
        let vocabulary = kept.isEmpty ? nil : kept.joined(separator: ", ") + "."
        let parts = [runPrompt, vocabulary].compactMap { $0?.isEmpty == false ? $0 : nil }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

extension TranscriptionOptions {
    /// These options with a journal's vocabulary added to the prompt (see `VocabularyPrompt`).
    package func adding(vocabulary words: [String]) -> TranscriptionOptions {
        guard !words.isEmpty else { return self }
        var options = self
        options.prompt = VocabularyPrompt.prompt(words, after: prompt)
        return options
    }
}
