import Foundation
import Testing
@testable import VoiceJournalTranscription

/// A segment the model ran across a shortened pause comes back as one segment per side, and
/// no word is stretched over the pause: the times of an answer point at the words.
@Suite struct SplitAtPauseTests {
    typealias Segment = TranscriptionResult.Segment
    typealias Word = TranscriptionResult.Word

    /// Two utterances, 22.8–26.3 s and 35.8–36.9 s, the pause between cut to 0.6 s: the upload
    /// holds 22.5–26.6 (upload 0–4.1) and 35.5–37.2 (upload 4.1–5.8).
    let map = TimeMap(pieces: [.init(start: 22.5, end: 26.6), .init(start: 35.5, end: 37.2)],
                      speech: [.init(start: 22.8, end: 26.3), .init(start: 35.8, end: 36.9)])

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test func aSegmentWhoseWordsLieOnBothSidesOfACutPauseIsSplitThere() {
        let text = " Eight of spades, four of close, seven of hearts. Ten of close."
        let said = ["Eight", "of", "spades", "four", "of", "close", "seven", "of", "hearts"]
        var words = said.enumerated().map { Word(start: 0.3 + 0.38 * Double($0.offset), end: 0.3 + 0.38 * Double($0.offset + 1), word: $0.element) }
        words += [Word(start: 4.5, end: 4.8, word: "Ten"), Word(start: 4.8, end: 5.0, word: "of"), Word(start: 5.0, end: 5.4, word: "close")]
        let segment = Segment(start: 0.3, end: 5.5, text: text, avgLogprob: -0.3, noSpeechProb: 0.02, words: words)
        let parts = segment.mapped(through: map)
        #expect(parts.map(\.text) == [" Eight of spades, four of close, seven of hearts.", " Ten of close."])
        #expect(Self.close(parts[0].start, 22.8) && Self.close(parts[0].end, 22.8 + 0.38 * 9))
        #expect(Self.close(parts[1].start, 35.9) && Self.close(parts[1].end, 36.9))
        #expect(parts.allSatisfy { $0.avgLogprob == -0.3 && $0.noSpeechProb == 0.02 })
        #expect(parts[0].words?.count == 9 && parts[1].words?.map(\.word) == ["Ten", "of", "close"])
    }

    @Test func aFirstWordStretchedAcrossTheCutStartsWhereTheVoiceDoes() {
        // "Ten" starts 0.2 s before the seam, in the kept tail of the first utterance's piece,
        // and the segment starts there too: mapped as one span it would be 9.5 s long.
        let words = [Word(start: 3.9, end: 4.6, word: "Ten"), Word(start: 4.6, end: 4.9, word: "of"), Word(start: 4.9, end: 5.3, word: "close")]
        let segment = Segment(start: 3.9, end: 5.4, text: " Ten of close.", words: words)
        let parts = segment.mapped(through: map)
        #expect(parts.count == 1)
        let ten = try! #require(parts[0].words?.first)
        // Its speech is on the later side: it starts with that side's voice (35.8 s).
        #expect(Self.close(ten.start, 35.8) && Self.close(ten.end, 35.5 + 0.5))
        #expect(Self.close(parts[0].start, 35.8))
        #expect(parts.flatMap { $0.words ?? [] }.allSatisfy { $0.end - $0.start <= 2 })
    }

    @Test func aSentencesFirstWordLeftInThePausesKeptEdgeGoesWithTheSentence() {
        // "I" placed wholly in the quiet tail after the first utterance (upload 3.85–4.05, no
        // speech there), the rest of "I would like…" after the cut: "I" starts the sentence.
        let words = [Word(start: 3.85, end: 4.05, word: "I"), Word(start: 4.45, end: 4.8, word: "would"),
                     Word(start: 4.8, end: 5.2, word: "like")]
        let segment = Segment(start: 3.85, end: 5.3, text: " I would like", words: words)
        let parts = segment.mapped(through: map)
        #expect(parts.map(\.text) == [" I would like"])
        #expect(Self.close(parts[0].start, 35.8) && Self.close(parts[0].words?[0].start ?? 0, 35.8))
        #expect(Self.close(parts[0].words?[0].end ?? 0, 36.0))
        // The same at a sentence's end: its last word left after the cut, in the next piece's quiet head.
        let trailing = Segment(start: 3.0, end: 4.3, text: " of hearts",
                               words: [Word(start: 3.0, end: 3.5, word: "of"), Word(start: 4.15, end: 4.35, word: "hearts")])
        let kept = trailing.mapped(through: map)
        #expect(kept.count == 1 && Self.close(kept[0].words?[1].end ?? 0, 26.3) && kept[0].end <= 26.6)
    }

    @Test func aWordOverTheSeamWithNoVoiceOnEitherSideStaysWithMostOfItsTime() {
        let quiet = TimeMap(pieces: [.init(start: 0, end: 3), .init(start: 20, end: 23)],
                            speech: [.init(start: 0.5, end: 2.0), .init(start: 21.0, end: 22.5)])
        // 2.1–3.4 of the upload: 0.9 s in the first piece's quiet tail, 0.4 s in the second's quiet head.
        let segment = Segment(start: 0.5, end: 3.4, text: " so um", words: [Word(start: 0.5, end: 2.0, word: "so"), Word(start: 2.1, end: 3.4, word: "um")])
        let parts = segment.mapped(through: quiet)
        #expect(parts.count == 1)
        let um = try! #require(parts[0].words?.last)
        #expect(Self.close(um.start, 2.1) && Self.close(um.end, 3.0))
        #expect(Self.close(parts[0].end, 3.0))
    }

    @Test func withoutWordsASegmentAcrossTheCutIsSharedByTheSpeechOnEachSide() {
        let segment = Segment(start: 0.3, end: 5.5, text: " Eight of spades, four of close, seven of hearts. Ten of close.", avgLogprob: -0.4)
        let parts = segment.mapped(through: map)
        // 3.5 s of speech before the cut, 1.1 s after: 12 words shared 9 and 3.
        #expect(parts.map(\.text) == [" Eight of spades, four of close, seven of hearts.", " Ten of close."])
        #expect(Self.close(parts[0].start, 22.8) && Self.close(parts[0].end, 26.3))
        #expect(Self.close(parts[1].start, 35.8) && Self.close(parts[1].end, 36.9))
        #expect(parts.allSatisfy { $0.avgLogprob == -0.4 && $0.words == nil })
    }

    @Test func withoutWordsATailReachingIntoTheNextPieceStartsAtItsVoice() {
        // A segment for the second utterance that starts in the first one's last 0.3 s of
        // speech: too little of it lies there to carry a word.
        let segment = Segment(start: 3.5, end: 5.5, text: " two nine three four zero")
        let parts = segment.mapped(through: map)
        #expect(parts.map(\.text) == [" two nine three four zero"])
        #expect(Self.close(parts[0].start, 35.8))
    }

    @Test func aSegmentOnOneSideIsMappedAsBefore() {
        let segment = Segment(start: 4.3, end: 5.3, text: " Ten of close.", words: [Word(start: 4.4, end: 5.3, word: "Ten")])
        let parts = segment.mapped(through: map)
        #expect(parts.count == 1 && Self.close(parts[0].start, 35.7) && Self.close(parts[0].end, 36.7))
        #expect(Self.close(parts[0].words?[0].start ?? 0, 35.8))
    }

    @Test func timesFarOutsideTheUploadStayInsideItsPieces() {
        let segment = Segment(start: 5.0, end: 9e15, text: " close", words: [Word(start: 5.0, end: 9e15, word: "close")])
        let parts = segment.mapped(through: map)
        #expect(parts.count == 1 && parts[0].end <= 37.2 && (parts[0].words?[0].end ?? .infinity) <= 37.2)
    }

    @Test func partsKeepTheTextsOwnSpellingOrFallBackToTheWords() {
        let segment = Segment(start: 0, end: 4, text: " Hello, world! How are you?",
                              words: [Word(start: 0, end: 1, word: " Hello,"), Word(start: 1, end: 2, word: " world!"),
                                      Word(start: 2, end: 3, word: " How"), Word(start: 3, end: 4, word: " are you?")])
        #expect(segment.parts(beforeWords: [2]).map(\.text) == [" Hello, world!", " How are you?"])
        #expect(segment.parts(beforeWords: [0, 4, 9]).count == 1)
        var disagreeing = segment
        disagreeing.text = " something else entirely"
        #expect(disagreeing.parts(beforeWords: [2]).map(\.text) == [" Hello, world!", " How are you?"])
    }

    @Test func aChunksSegmentRunningPastItsEndDoesNotTakeTheNextChunksTime() {
        let first = ChunkTranscript(startSeconds: 0, endSeconds: 30, result: TranscriptionResult(
            text: "First part.", segments: [Segment(start: 25, end: 44, text: " First part.",
                                                    words: [Word(start: 25, end: 26, word: "First"), Word(start: 26, end: 44, word: "part.")])],
            model: "whisper-1"))
        let second = ChunkTranscript(startSeconds: 30, endSeconds: 60, result: TranscriptionResult(
            text: "Second part.", segments: [Segment(start: 2, end: 4, text: " Second part.")], model: "whisper-1"))
        let stitched = TranscriptStitcher.stitch([first, second])
        #expect(stitched.segments.map(\.end) == [30, 34])
        #expect(stitched.segments.map(\.start) == [25, 32])
        #expect(stitched.segments[0].words?.last?.end == 30)
    }
}
