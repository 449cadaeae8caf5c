import Foundation
import Testing
@testable import VoiceJournalChat
import VoiceJournalStore

/// Sentences are what a model cites: numbered from 1, cut where a sentence ends, timed by
/// the transcript's own words.
struct EntrySentencesTests {
    @Test func typedTextIsCutAtSentenceEndsAndLineBreaks() {
        let sentences = EntrySentences.split("It rained. We stayed in!\nRead a book… Then slept? \"Yes.\" Done")
        #expect(sentences.map(\.text) == ["It rained.", "We stayed in!", "Read a book…", "Then slept?", "\"Yes.\"", "Done"])
        #expect(sentences.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(sentences.allSatisfy { $0.start == nil })
    }

    @Test func aTranscriptsSentencesTakeTheirFirstAndLastWordsTimes() {
        let words: [Transcript.Word] = [
            .init(start: 0.5, end: 0.8, word: " I"), .init(start: 0.8, end: 1.2, word: " walked."),
            .init(start: 2.0, end: 2.3, word: " Then"), .init(start: 2.3, end: 2.9, word: " rain"),
        ]
        let segments = [Transcript.Segment(start: 0.4, end: 1.3, text: " I walked.", words: Array(words[0...1])),
                        Transcript.Segment(start: 1.9, end: 4.0, text: " Then rain came home.", words: Array(words[2...3])),
                        Transcript.Segment(start: 5.0, end: 7.0, text: " It ended.")]
        let sentences = EntrySentences.timed(segments)
        #expect(sentences.map(\.text) == ["I walked.", "Then rain It ended."])
        #expect(sentences[0].start == 0.5 && sentences[0].end == 1.2)
        // A segment with no words spreads its words over the segment.
        #expect(sentences[1].start == 2.0 && sentences[1].end == 7.0)
    }
}
