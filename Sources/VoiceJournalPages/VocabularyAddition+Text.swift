import VoiceJournalStore

extension VocabularyAddition {
    /// What `vocabulary add` says: `Added 1 word to the vocabulary of Personal (already there:
    /// Jörg).` (the caller escapes it for the terminal).
    package var text: String {
        let already = known.isEmpty ? "" : " (already there: \(known.joined(separator: ", ")))"
        return "Added \(added.count) word\(added.count == 1 ? "" : "s") to the vocabulary of \(journal)\(already)."
    }
}
