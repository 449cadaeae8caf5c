import VoiceJournalStore

/// A small sentiment lexicon: enough to tell an entry full of "furious" and "hate" from one
/// of "happy" and "wonderful", so a suggested mood that contradicts the entry's own words
/// is not shown as a suggestion. It judges only clear cases and stays silent otherwise.
public enum MoodValence {
    static let positive: Set<String> = [
        "happy", "glad", "joy", "joyful", "great", "wonderful", "amazing", "love", "loved", "lovely", "excited", "exciting",
        "grateful", "thankful", "proud", "fun", "enjoyed", "enjoy", "beautiful", "delighted", "calm", "relaxed", "peaceful",
        "fantastic", "awesome", "laughed", "smile", "smiled", "celebrate", "celebrated", "good", "best", "thrilled", "hopeful",
    ]
    static let negative: Set<String> = [
        "sad", "unhappy", "angry", "furious", "hate", "hated", "awful", "terrible", "horrible", "worried", "worry", "anxious",
        "stressed", "stress", "upset", "cried", "crying", "lonely", "scared", "afraid", "frustrated", "annoyed", "miserable",
        "depressed", "exhausted", "panic", "fear", "angrier", "rage", "grief", "hurt", "disappointed", "nervous", "tense", "worst",
    ]
    static let negations: Set<String> = ["not", "never", "no", "hardly", "don't", "didn't", "wasn't", "isn't", "can't", "couldn't", "won't"]

    /// Positive and negative words in `text`; a word right after a negation ("not happy") counts for the other side.
    public static func count(_ text: String) -> (positive: Int, negative: Int) {
        let words = text.lowercased().split { !$0.isLetter && $0 != "'" && $0 != "’" }.map { $0.replacingOccurrences(of: "’", with: "'") }
        var positive = 0, negative = 0
        for (index, word) in words.enumerated() {
            let negated = index > 0 && negations.contains(words[index - 1])
            if Self.positive.contains(word) { if negated { negative += 1 } else { positive += 1 } }
            if Self.negative.contains(word) { if negated { positive += 1 } else { negative += 1 } }
        }
        return (positive, negative)
    }

    /// Why `mood` contradicts `text`, or nil when it does not (or the words do not say):
    /// a glad mood for words at least two-to-one and twice negative, or the other way round.
    public static func contradiction(_ mood: Mood, _ text: String) -> String? {
        let (positive, negative) = count(text)
        switch mood.score {
        case 4...5 where negative >= 2 && negative >= 2 * max(positive, 1) && positive < negative:
            return "\(mood.rawValue) contradicts the entry's words (\(negative) negative, \(positive) positive)"
        case 1...2 where positive >= 2 && positive >= 2 * max(negative, 1) && negative < positive:
            return "\(mood.rawValue) contradicts the entry's words (\(positive) positive, \(negative) negative)"
        default:
            return nil
        }
    }
}
