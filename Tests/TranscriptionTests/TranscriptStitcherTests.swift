import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct TranscriptStitcherTests {
    typealias Segment = TranscriptionResult.Segment

    /// A chunk; `inSpeech`: the cut before it went through speech, where a repeated word is
    /// one word heard twice.
    static func chunk(at start: Double, _ text: String, _ segments: [Segment] = [],
                      language: String? = "english", inSpeech: Bool = false) -> ChunkTranscript {
        ChunkTranscript(startSeconds: start, startsInSpeech: inSpeech, result: TranscriptionResult(
            text: text, language: language, segments: segments, model: "whisper-1"))
    }

    @Test func shiftsSegmentsOntoTheOriginalTimelineAndJoinsTheText() {
        let stitched = TranscriptStitcher.stitch([
            Self.chunk(at: 59.75, " First thought.", [Segment(start: 0.3, end: 1.9, text: " First thought.")]),
            Self.chunk(at: 600.5, "Second thought. ", [Segment(start: 0.25, end: 2, text: " Second"),
                                                      Segment(start: 2, end: 3, text: " thought.")]),
        ], durationSeconds: 700)
        #expect(stitched.text == "First thought. Second thought.")
        #expect(stitched.segments == [
            Segment(start: 60.05, end: 61.65, text: " First thought."),
            Segment(start: 600.75, end: 602.5, text: " Second"),
            Segment(start: 602.5, end: 603.5, text: " thought."),
        ])
        #expect(stitched.durationSeconds == 700)
        #expect(stitched.language == "english")
        #expect(stitched.model == "whisper-1")
    }

    @Test func dropsWordsRepeatedAcrossASeam() {
        let stitched = TranscriptStitcher.stitch([
            Self.chunk(at: 0, "And then we went home.", [Segment(start: 0, end: 2.5, text: " And then we went home.")]),
            Self.chunk(at: 2.4, "Went home, after that we slept.",
                       [Segment(start: 0, end: 0.4, text: " Went"), Segment(start: 0.4, end: 3, text: " home, after that we slept.")]),
        ])
        #expect(stitched.text == "And then we went home. after that we slept.")
        #expect(stitched.segments.map(\.text) == [" And then we went home.", " after that we slept."])
        #expect(stitched.segments.last?.start == 2.8)
    }

    @Test func keepsWordsThatOnlyLookAlikeOrRepeatFurtherBack() {
        let stitched = TranscriptStitcher.stitch([
            Self.chunk(at: 0, "I said no"),
            Self.chunk(at: 5, "one came.", inSpeech: true),
            Self.chunk(at: 9, "One more time, one came back.", inSpeech: true),
        ])
        // Only the end of one chunk against the start of the next counts: "one came" further
        // back in the text is not a seam.
        #expect(stitched.text == "I said no one came. One more time, one came back.")
        let unrelated = TranscriptStitcher.stitch([Self.chunk(at: 0, "the cat sat"), Self.chunk(at: 3, "on the mat", inSpeech: true)])
        #expect(unrelated.text == "the cat sat on the mat")
    }

    @Test func removesAtMostFiveRepeatedWords() {
        #expect(TranscriptStitcher.repeatedWordCount(ending: ["a", "b", "c", "d", "e", "f"],
                                                     starting: ["a", "b", "c", "d", "e", "f"]) == 0)
        #expect(TranscriptStitcher.repeatedWordCount(ending: ["x", "b", "c", "d", "e", "f"],
                                                     starting: ["b", "c", "d", "e", "f", "g"]) == 5)
        #expect(TranscriptStitcher.repeatedWordCount(ending: ["went", "home"], starting: ["home", "again"]) == 1)
    }

    /// A live take's seam that cut through a sentence: the piece before heard its start and
    /// its model finished it; the piece after heard it whole. The sentence is kept once.
    @Test func dropsAWholeSentenceHeardOnBothSidesOfASeamInSpeech() {
        let before = Self.chunk(at: 0, "It was cold. So we walked down to the old harbour today.",
                                [Segment(start: 0, end: 1.2, text: " It was cold."),
                                 Segment(start: 1.2, end: 5, text: " So we walked down to the old harbour today.")])
        let after = Self.chunk(at: 4.5, "So we walked down to the old harbour today. Then we ate chips.",
                               [Segment(start: 0, end: 2.5, text: " So we walked down to the old harbour today."),
                                Segment(start: 2.5, end: 4, text: " Then we ate chips.")], inSpeech: true)
        let stitched = TranscriptStitcher.stitch([before, after])
        #expect(stitched.text == "It was cold. So we walked down to the old harbour today. Then we ate chips.")
        #expect(stitched.segments.map(\.text) == [" It was cold.", " So we walked down to the old harbour today.", " Then we ate chips."])
        // A seam in a pause keeps it: the sentence was said twice.
        var paused = after
        paused.startsInSpeech = false
        paused.startSeconds = 6
        #expect(TranscriptStitcher.stitch([before, paused]).text
                == "It was cold. So we walked down to the old harbour today. So we walked down to the old harbour today. Then we ate chips.")
        // Only whole sentences: a run that starts inside the earlier sentence is not one.
        let partial = TranscriptStitcher.stitch([
            Self.chunk(at: 0, "Yesterday we walked down to the old harbour today."),
            Self.chunk(at: 4, "we walked down to the old harbour today. Then", inSpeech: true),
        ])
        #expect(partial.text == "Yesterday we walked down to the old harbour today. we walked down to the old harbour today. Then")
    }

    /// Chunks of any length, with and without sentence ends, in and out of speech: the
    /// stitched text is never longer than the chunks' and the stitcher never traps.
    @Test func anyRunOfChunksStitches() {
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let vocabulary = ["we", "walked.", "home", "today!", "so", "—", "it", "was?", "cold", "…", "harbour."]
        for _ in 0..<300 {
            let chunks = (0..<(1 + next(5))).map { index in
                Self.chunk(at: Double(index) * 5, (0..<next(90)).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " "),
                           inSpeech: next(2) == 0)
            }
            let words = chunks.map { TranscriptStitcher.Tokens($0.result.text).words.count }.reduce(0, +)
            #expect(TranscriptStitcher.Tokens(TranscriptStitcher.stitch(chunks).text).words.count <= words)
        }
    }

    @Test func comparesWordsWithoutCaseOrPunctuation() {
        let stitched = TranscriptStitcher.stitch([Self.chunk(at: 0, "It's over, Anna!"), Self.chunk(at: 4, "— anna? Its over now", inSpeech: true)])
        #expect(stitched.text == "It's over, Anna! Its over now")
    }

    @Test func timestampsNeverGoBackwards() {
        let stitched = TranscriptStitcher.stitch([
            Self.chunk(at: 0, "one two", [Segment(start: 0, end: 10.4, text: " one two")]),
            // The model placed this chunk's first words before its own start plus the previous end.
            Self.chunk(at: 10, "three four", [Segment(start: 0.1, end: 0.3, text: " three"), Segment(start: 0.2, end: 2, text: " four")]),
        ])
        let starts = stitched.segments.map(\.start)
        #expect(starts == starts.sorted())
        for (earlier, later) in zip(stitched.segments, stitched.segments.dropFirst()) {
            #expect(later.start >= earlier.end)
            #expect(later.end >= later.start)
        }
    }

    @Test func skipsChunksWithNoText() {
        let stitched = TranscriptStitcher.stitch([
            Self.chunk(at: 0, "", language: nil),
            Self.chunk(at: 30, "Hello there.", [Segment(start: 1, end: 2, text: " Hello there.")], language: "english"),
            Self.chunk(at: 60, "   ", [Segment(start: 0, end: 29, text: " Thanks for watching")]),
            Self.chunk(at: 90, "there. Bye.", [Segment(start: 0, end: 1, text: " there. Bye.")], inSpeech: true),
        ])
        #expect(stitched.text == "Hello there. Bye.")
        #expect(stitched.segments == [Segment(start: 31, end: 32, text: " Hello there."), Segment(start: 90, end: 91, text: " Bye.")])
        #expect(stitched.language == "english")
        #expect(TranscriptStitcher.stitch([]).text.isEmpty)
    }

    @Test func gpt4oChunksWithoutSegmentsStillJoin() {
        let stitched = TranscriptStitcher.stitch([Self.chunk(at: 0, "Part one."), Self.chunk(at: 1300, "Part two.")])
        #expect(stitched.text == "Part one. Part two.")
        #expect(stitched.segments.isEmpty)
    }
}
