import Testing
import VoiceJournalTestSupport

/// The word error rate the end-to-end tests judge transcripts by gives the textbook answers.
@Suite(.onTestThreads) struct WordErrorRateTests {
    /// (reference, hypothesis, expected rate).
    static let cases: [(String, String, Double)] = [
        ("the cat sat on the mat", "the cat sat on the mat", 0),
        ("the cat sat on the mat", "the cat sat on a mat", 1.0 / 6),            // one substitution
        ("the cat sat on the mat", "the cat sat on mat", 1.0 / 6),              // one deletion
        ("the cat sat on the mat", "the black cat sat on the mat", 1.0 / 6),    // one insertion
        ("one two three", "three two one", 2.0 / 3),                            // same words, order matters
        ("one two three four", "", 1.0),                                        // nothing heard
        ("", "", 0),
        ("", "hello there", 2.0),                                               // insertions over an empty script
        ("a b c d e f g h i j", "a b x d e f g h i", 0.2),                      // substitution + deletion
        ("What was the best part of your week, and who?", "what was the best part of your week? And who", 0),
        ("It's a well-known place", "its a well known place.", 0),              // apostrophe and hyphen
        ("Twenty people came", "20 people came", 1.0 / 3),                      // numbers are not converted
    ]

    @Test(arguments: 0..<cases.count)
    func knownAnswers(index: Int) {
        let (reference, hypothesis, expected) = Self.cases[index]
        let rate = WordErrorRate.of(hypothesis, against: reference)
        #expect(abs(rate - expected) < 1e-9, "\(reference.debugDescription) vs \(hypothesis.debugDescription): \(rate)")
    }

    @Test func normalisationLowercasesAndDropsPunctuation() {
        #expect(WordErrorRate.words("Hello, World! Don't — stop…") == ["hello", "world", "dont", "stop"])
        #expect(WordErrorRate.words("  \n ") == [])
    }

    @Test func editDistanceIsSymmetricInCount() {
        let a = ["kitten", "sat", "here"], b = ["sitting", "here"]
        #expect(WordErrorRate.editDistance(a, b) == 2)
        #expect(WordErrorRate.editDistance(b, a) == 2)
    }
}
