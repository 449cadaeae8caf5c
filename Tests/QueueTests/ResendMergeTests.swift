import Foundation
import Testing
import VoiceJournalTranscription
@testable import VoiceJournalQueue

/// Words heard again for a stretch: placed in time order inside a long segment, and not
/// said twice when the first answer already had them next to the stretch.
@Suite struct ResendMergeTests {
    typealias Segment = TranscriptionResult.Segment
    typealias Word = TranscriptionResult.Word

    @Test func aLongSegmentIsCutAtTheWordsHeardAgain() {
        let long = Segment(start: 1.5, end: 32, text: " call the plumber. I need to call",
                           words: [.init(start: 1.5, end: 2, word: "call"), .init(start: 2, end: 2.5, word: "the"),
                                   .init(start: 2.5, end: 4, word: "plumber."), .init(start: 29, end: 29.5, word: "I"),
                                   .init(start: 29.5, end: 30, word: "need"), .init(start: 30, end: 30.5, word: "to"),
                                   .init(start: 30.5, end: 32, word: "call")])
        let split = Worker.split([long], at: [16])
        #expect(split.map(\.text) == [" call the plumber.", " I need to call"])
        #expect(split.map(\.start) == [1.5, 29] && split.map(\.end) == [4, 32])
        let heard = Segment(start: 16, end: 17.3, text: " Five, five.")
        let merged = TranscriptReview.merged(split, with: [heard], replacing: nil)
        #expect(merged.map(\.text) == [" call the plumber.", " Five, five.", " I need to call"])
        // A time outside every segment, or a segment without words, cuts nothing.
        #expect(Worker.split([long], at: [40]) == [long])
        #expect(Worker.split([Segment(start: 0, end: 10, text: " no words")], at: [5]).count == 1)
    }

    @Test func wordsTheFirstAnswerHasNextToTheStretchAreNotAddedAgain() {
        let kept = [Segment(start: 2.75, end: 18.6, text: " Pepperoni mushroom onion, that is what we ordered.")]
        let again = [Segment(start: 1.6, end: 2.4, text: " Pepperoni."), Segment(start: 1.6, end: 2.4, text: " Salami.")]
        let new = Worker.unheardBefore(again, besides: kept, near: 1.6..<2.4)
        #expect(new.map(\.text) == [" Salami."])
        // Far from the stretch, the same word is a word said again.
        #expect(Worker.unheardBefore(again, besides: kept, near: 30..<31).count == 2)
    }
}
