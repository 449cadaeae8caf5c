import Foundation

/// A question turned into a full-text query that finds the passages that may answer it:
/// the words that carry meaning, each a prefix (`"walk"*` finds walked, walking; a word of
/// one or two letters whole) OR'ed with
/// the others, so a passage holding some of them ranks by how many and how rare; the
/// journal's people and vocabulary kept whole (`"anna"`, `"grandma rose"`), never cut to
/// a prefix; words like "what", "did", "my" left out. Every term is quoted: nothing the
/// question holds is read as FTS5's own syntax.
public struct AskQuery: Sendable, Equatable {
    /// The FTS5 query; empty when the question holds no word worth searching for.
    public var pattern: String
    /// The terms, as searched (names whole, other words as prefixes).
    public var terms: [String]

    /// The query for `question`; `names` are the journal's people and vocabulary.
    public init(_ question: String, names: [String] = []) {
        var words = Self.words(question)
        var terms: [String] = []
        // Names first, longest first, so "Grandma Rose" is one phrase rather than two words.
        for name in names.map(Self.words).filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            guard let at = Self.find(name, in: words) else { continue }
            terms.append("\"" + name.joined(separator: " ") + "\"")
            words.replaceSubrange(at..<(at + name.count), with: [])
        }
        var seen = Set<String>()
        for (index, word) in words.enumerated() where !Self.stopWords.contains(word) && (word.count > 1 || word.first?.isNumber == true) {
            // "How long", "what time": how the question is asked, not what it is about.
            if index > 0, Self.askingPairs[words[index - 1]]?.contains(word) == true { continue }
            guard seen.insert(word).inserted else { continue }
            // A word of one or two letters ("dr", "tv") as a prefix would match a large share
            // of every journal (drink, drizzle): it is looked for whole.
            terms.append("\"" + word + "\"" + (word.count > 2 ? "*" : ""))
        }
        self.terms = terms
        pattern = terms.joined(separator: " OR ")
    }

    /// The question's words, lowercased: letters and digits (an apostrophe inside a word
    /// ends it: "Anna's" is "anna").
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var skipping = false // the letters after an apostrophe: "anna's" is "anna"
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                if !skipping { current.append(character) }
                continue
            }
            if !current.isEmpty { words.append(current) }
            current = ""
            skipping = (character == "'" || character == "’") && !(words.last?.isEmpty ?? true)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func find(_ name: [String], in words: [String]) -> Int? {
        guard name.count <= words.count else { return nil }
        return (0...(words.count - name.count)).first { Array(words[$0..<($0 + name.count)]) == name }
    }

    /// Words that, after the word before them, say how a question is asked ("how long", "how
    /// far", "what time") — a passage holding "long" is no likelier to say how long.
    static let askingPairs: [String: Set<String>] = ["how": ["long", "far", "old", "soon", "big"], "what": ["time"]]

    /// Words that say how a question is asked rather than what it is about.
    static let stopWords: Set<String> = [
        "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be",
        "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
        "does", "doing", "down", "during", "each", "ever", "every", "few", "for", "from", "further", "had", "has", "have",
        "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is",
        "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off",
        "often", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she",
        "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
        "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were",
        "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
        "yourself", "tell", "say", "said", "says", "journal", "entry", "entries", "times", "much", "many", "ask",
        "remember", "know", "think", "anything", "something", "thing", "things", "get", "got", "let", "also", "like",
    ]
}
