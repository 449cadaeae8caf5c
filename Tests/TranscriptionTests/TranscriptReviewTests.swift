import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct TranscriptReviewTests {
    typealias Segment = TranscriptionResult.Segment
    typealias Word = TranscriptionResult.Word

    let review = TranscriptReview()

    /// A segment of `text` from `start` to `end`; with `timed`, its words spread evenly over it.
    static func segment(_ start: Double, _ end: Double, _ text: String, timed: Bool = false,
                        noSpeech: Double? = nil, logprob: Double? = nil, ratio: Double? = nil) -> Segment {
        Segment(start: start, end: end, text: " " + text, avgLogprob: logprob, noSpeechProb: noSpeech,
                compressionRatio: ratio, words: timed ? words(text, from: start, to: end) : nil)
    }

    /// The words of `text` spread evenly over `start…end`.
    static func words(_ text: String, from start: Double, to end: Double) -> [Word] {
        let parts = text.split(separator: " ").map(String.init)
        let step = (end - start) / Double(parts.count)
        return parts.enumerated().map { Word(start: start + step * Double($0), end: start + step * Double($0 + 1), word: $1) }
    }

    static func texts(_ segments: [Segment]) -> [String] { segments.map(\.text) }

    // MARK: - Edges

    @Test func anEmptyAnswerKeepsNothingAndNamesEveryCheckedStretchUncovered() {
        let verdict = review.review([], speech: [0..<2, 5..<5.5, 10..<11])
        #expect(verdict == TranscriptReview.Verdict(uncovered: [0..<2, 10..<11]))
    }

    @Test func withNoSpeechStretchesEverySegmentIsOverSilence() {
        let answer = [Self.segment(0, 2, "Hello there."), Self.segment(2, 4, "How are you?", timed: true)]
        let verdict = review.review(answer, speech: [])
        #expect(verdict.kept.isEmpty)
        #expect(verdict.leftOut == answer.map { LeftOutSegment(segment: $0, reason: .silence) })
        #expect(verdict.uncovered.isEmpty)
    }

    @Test func segmentsWithoutWordsAreDroppedWithoutATrace() {
        let verdict = review.review([Self.segment(0, 1, ""), Self.segment(1, 2, "…"), Self.segment(2, 3, "Yes.")], speech: [0..<3])
        #expect(Self.texts(verdict.kept) == [" Yes."])
        #expect(verdict.leftOut.isEmpty)
    }

    // MARK: - Silence

    @Test func whatIsLeftOutIsListedInTimeOrder() {
        let loop = Self.segment(0, 3, "go go go")
        let phrase = Self.segment(5, 6, "Thank you.")
        let unsure = Self.segment(8, 9, "Um.", noSpeech: 0.9, logprob: -2)
        let verdict = review.review([loop, phrase, unsure], speech: [0..<3, 8..<9])
        #expect(verdict.leftOut.map(\.reason) == [.repetition, .silence, .noSpeech])
        #expect(verdict.leftOut.map(\.segment.text) == [" go go", " Thank you.", " Um."])
    }

    @Test func aSegmentOverAPauseIsLeftOutAsSilence() {
        let speech: [Range<Double>] = [2..<7, 14..<19]
        let answer = [Self.segment(2, 7, "I grew up by the sea."), Self.segment(10, 11, "Thanks for watching!"),
                      Self.segment(14, 19, "We had a boat.")]
        let verdict = review.review(answer, speech: speech)
        #expect(Self.texts(verdict.kept) == [" I grew up by the sea.", " We had a boat."])
        #expect(verdict.leftOut == [LeftOutSegment(segment: answer[1], reason: .silence)])
        #expect(verdict.uncovered.isEmpty)
        #expect(verdict.loops.isEmpty)
    }

    @Test(arguments: [(8.0, true), (8.01, false)])
    func silenceIsLessThanAFifthOfTheSegmentInSpeech(speechStart: Double, kept: Bool) {
        // 2 s of the segment's 10 s in speech is exactly a fifth: kept; a hair less is silence.
        let verdict = review.review([Self.segment(0, 10, "Well.")], speech: [speechStart..<10])
        #expect(verdict.kept.count == (kept ? 1 : 0))
        #expect(verdict.leftOut.map(\.reason) == (kept ? [] : [.silence]))
    }

    @Test func aSegmentSpanningTwoStretchesOverALongPauseIsSpeech() {
        // 6 s of speech with a 12 s pause between: the pause counts as at most 1 s.
        let answer = [Self.segment(0, 18, "I went out. Then I came back.")]
        let verdict = review.review(answer, speech: [0..<3, 15..<18])
        #expect(verdict.kept == answer)
        #expect(verdict.uncovered.isEmpty)
    }

    @Test func aPhraseAcrossAShortenedPauseIsJudgedByItsWords() {
        // "Thanks for watching!" put over the 0.4 s gap of an upload whose 12 s pause was cut:
        // mapped back, its middle word spans the whole pause; its words are 5 % speech.
        var phrase = Self.segment(3.7, 16.3, "Thanks for watching!")
        phrase.words = [Word(start: 3.7, end: 4.03, word: "Thanks"), Word(start: 4.03, end: 15.97, word: "for"),
                        Word(start: 15.97, end: 16.3, word: "watching!")]
        let answer = [Self.segment(1, 4, "I went home.", timed: true), phrase, Self.segment(16, 19, "Then I slept.", timed: true)]
        let verdict = review.review(answer, speech: [1..<4, 16..<19])
        #expect(Self.texts(verdict.kept) == [" I went home.", " Then I slept."])
        #expect(verdict.leftOut == [LeftOutSegment(segment: phrase, reason: .silence)])
    }

    @Test func wordsTackedOnOverAPauseLeaveTheSegmentAndItsTextFollowsItsWords() throws {
        var segment = Self.segment(1, 10, "I went home. Thank you.")
        segment.words = Self.words("I went home.", from: 1, to: 4) + Self.words("Thank you.", from: 9, to: 10)
        let verdict = review.review([segment], speech: [1..<4])
        let kept = try #require(verdict.kept.first)
        #expect(kept.text == " I went home.")
        #expect(kept.words == Self.words("I went home.", from: 1, to: 4))
        #expect(kept.start == 1)
        #expect(kept.end == 4)
        #expect(verdict.leftOut.map(\.reason) == [.silence])
        #expect(verdict.leftOut.first?.segment.text == " Thank you.")
        #expect(verdict.leftOut.first?.segment.start == 9)
        #expect(verdict.leftOut.first?.segment.end == 10)
        #expect(verdict.leftOut.first?.segment.words == Self.words("Thank you.", from: 9, to: 10))
    }

    @Test func wordsNearSpeechStayEvenOutsideIt() {
        // A word 0.4 s past the stretch (within the half-second margin) is not cut.
        var segment = Self.segment(1, 4.6, "I went home.")
        segment.words = [Word(start: 1, end: 2, word: "I"), Word(start: 2, end: 3.9, word: "went"), Word(start: 4.4, end: 4.6, word: "home.")]
        let verdict = review.review([segment], speech: [1..<4])
        #expect(verdict.kept == [segment])
    }

    // MARK: - No speech

    @Test(arguments: [(0.6, -1.5, true), (0.61, -1.0, true), (0.61, -1.01, false), (0.9, nil, true)] as [(Double, Double?, Bool)])
    func noSpeechNeedsBothOfWhispersThresholdsCrossed(noSpeech: Double, logprob: Double?, kept: Bool) {
        let segment = Self.segment(0, 2, "Hmm.", noSpeech: noSpeech, logprob: logprob)
        let verdict = review.review([segment], speech: [0..<2])
        #expect(verdict.kept.count == (kept ? 1 : 0))
        #expect(verdict.leftOut == (kept ? [] : [LeftOutSegment(segment: segment, reason: .noSpeech)]))
        // A stretch whose only segment the model called no speech is not covered.
        #expect(verdict.uncovered == (kept ? [] : [0..<2]))
    }

    // MARK: - Loops

    @Test func aLoopInsideOneSegmentKeepsOneOccurrenceAndNamesItsRegion() {
        let text = Array(repeating: "I went home.", count: 5).joined(separator: " ")
        let segment = Self.segment(10, 18, "So " + text, timed: true, ratio: 2.8)
        let verdict = review.review([segment], speech: [10..<18])
        #expect(Self.texts(verdict.kept) == [" So I went home."])
        #expect(verdict.kept.first?.words?.map(\.word) == ["So", "I", "went", "home."])
        #expect(verdict.kept.first?.end == 12)
        #expect(verdict.leftOut.count == 1)
        #expect(verdict.leftOut.first?.reason == .repetition)
        #expect(verdict.leftOut.first?.segment.text == " " + Array(repeating: "I went home.", count: 4).joined(separator: " "))
        #expect(verdict.leftOut.first?.segment.start == 12)
        #expect(verdict.leftOut.first?.segment.end == 18)
        // From the first "I" to the last "home.".
        #expect(verdict.loops == [10.5..<18])
        #expect(verdict.uncovered.isEmpty)
    }

    @Test func aLoopWithoutWordsIsCutInTheTextAndItsRegionIsTheSegment() {
        let segment = Self.segment(3, 9, "We sang. We sang, we sang! WE SANG")
        let verdict = review.review([segment], speech: [3..<9])
        #expect(Self.texts(verdict.kept) == [" We sang."])
        #expect(verdict.leftOut.first?.segment.text == " We sang, we sang! WE SANG")
        #expect(verdict.loops == [3..<9])
    }

    @Test(arguments: [2, 3])
    func aPhraseIsALoopFromThreeTimesInARow(times: Int) {
        let segment = Self.segment(0, 4, Array(repeating: "thank you", count: times).joined(separator: " "))
        let verdict = review.review([segment], speech: [0..<4])
        #expect(Self.texts(verdict.kept) == (times >= 3 ? [" thank you"] : [segment.text]))
        #expect(verdict.loops == (times >= 3 ? [0..<4] : []))
    }

    @Test func aLoopAcrossThreeSegmentsKeepsTheFirst() {
        let answer = [Self.segment(0, 2, "Where was I?"), Self.segment(2, 4, "I went home.", timed: true),
                      Self.segment(4, 6, "I went home.", timed: true), Self.segment(6, 8, "i went home", timed: true)]
        let verdict = review.review(answer, speech: [0..<8])
        #expect(Self.texts(verdict.kept) == [" Where was I?", " I went home."])
        #expect(verdict.leftOut == [LeftOutSegment(segment: answer[2], reason: .repetition),
                                    LeftOutSegment(segment: answer[3], reason: .repetition)])
        #expect(verdict.loops == [2..<8])
    }

    @Test func aPhraseTwiceInOneSegmentAndOnceInTheNextIsALoop() {
        let answer = [Self.segment(0, 4, "I went home. I went home."), Self.segment(4, 6, "I went home.")]
        let verdict = review.review(answer, speech: [0..<6])
        #expect(Self.texts(verdict.kept) == [" I went home."])
        #expect(verdict.leftOut.map(\.segment.text) == [" I went home.", " I went home."])
        #expect(verdict.loops == [0..<6])
    }

    @Test func twoSegmentsSayingTheSameAreNotALoop() {
        let answer = [Self.segment(0, 1, "Yes."), Self.segment(5, 6, "Yes.")]
        let verdict = review.review(answer, speech: [0..<1, 5..<6])
        #expect(verdict.kept == answer)
        #expect(verdict.loops.isEmpty)
    }

    @Test(arguments: [(2.4, true), (2.41, false)])
    func aCompressionRatioAboveTheThresholdWithNoRepeatToCutLeavesTheSegmentOut(ratio: Double, kept: Bool) {
        let segment = Self.segment(2, 6, "and the and so the and so", ratio: ratio)
        let verdict = review.review([segment], speech: [2..<6])
        #expect(verdict.kept.count == (kept ? 1 : 0))
        #expect(verdict.leftOut == (kept ? [] : [LeftOutSegment(segment: segment, reason: .repetition)]))
        #expect(verdict.loops == (kept ? [] : [2..<6]))
        // The stretch goes again as the loop's region, not a second time as uncovered.
        #expect(verdict.uncovered.isEmpty)
    }

    @Test func textAndWordsThatDoNotLineUpAreCutByTheWords() {
        // OpenAI's word list has no punctuation and here one word more than the text.
        var segment = Self.segment(0, 6, "Uh, I went home. I went home. I went home.")
        segment.words = Self.words("uh um I went home I went home I went home", from: 0, to: 6)
        let verdict = review.review([segment], speech: [0..<6])
        #expect(Self.texts(verdict.kept) == [" uh um I went home"])
        #expect(verdict.kept.first?.words?.map(\.word) == ["uh", "um", "I", "went", "home"])
        #expect(verdict.leftOut.first?.segment.text == " I went home I went home")
    }

    @Test func timesThatAreNotNumbersLoseTheirWordsOrTheirSegment() {
        var segment = Self.segment(0, 2, "One two.", timed: true)
        segment.words?[1].end = .nan
        let broken = Self.segment(.infinity, .infinity, "Three.")
        let verdict = review.review([segment, broken], speech: [0..<2])
        #expect(verdict.kept.first?.text == " One two.")
        #expect(verdict.kept.first?.words == nil)
        #expect(verdict.leftOut == [LeftOutSegment(segment: broken, reason: .silence)])
    }

    // MARK: - Coverage

    @Test(arguments: [(0.3, true), (0.29, false)])
    func aStretchIsCoveredFromThirtyPercentOfIt(heard: Double, covered: Bool) {
        let verdict = review.review([Self.segment(0, heard, "Hi.")], speech: [0..<1])
        #expect(verdict.uncovered == (covered ? [] : [0..<1]))
    }

    @Test func halfASecondCoversALongStretch() {
        let verdict = review.review([Self.segment(0, 0.5, "Well,")], speech: [0..<20])
        #expect(verdict.uncovered.isEmpty)
        let less = review.review([Self.segment(0, 0.49, "Well,")], speech: [0..<20])
        #expect(less.uncovered == [0..<20])
    }

    @Test func stretchesShorterThanASecondAreNotChecked() {
        let verdict = review.review([Self.segment(0, 2, "One two.")], speech: [0..<2, 6..<6.99, 9..<10])
        #expect(verdict.uncovered == [9..<10])
    }

    @Test func aSegmentWhoseWordsSkipAStretchDoesNotCoverIt() {
        var segment = Self.segment(0, 23, "One two. Five six.")
        segment.words = Self.words("One two.", from: 0, to: 3) + Self.words("Five six.", from: 20, to: 23)
        let verdict = review.review([segment], speech: [0..<3, 10..<13, 20..<23])
        #expect(verdict.kept == [segment])
        #expect(verdict.uncovered == [10..<13])
        // Without words the segment's span covers all three.
        segment.words = nil
        #expect(review.review([segment], speech: [0..<3, 10..<13, 20..<23]).uncovered.isEmpty)
    }

    @Test func aFirstHalfAnswerLeavesTheRestUncovered() {
        let speech: [Range<Double>] = [2..<4, 14..<16, 27.5..<29.5, 33..<35]
        let answer = [Self.segment(2, 4, "region one", timed: true), Self.segment(14, 16, "region two", timed: true)]
        #expect(review.review(answer, speech: speech).uncovered == [27.5..<29.5, 33..<35])
    }

    // MARK: - Merging re-sends

    @Test func aResendIsMergedInTimeOrder() {
        let kept = [Self.segment(0, 2, "One."), Self.segment(10, 12, "Three.")]
        let resent = [Self.segment(5, 7, "Two.")]
        #expect(Self.texts(TranscriptReview.merged(kept, with: resent, replacing: nil)) == [" One.", " Two.", " Three."])
        // At an equal start what was kept comes first.
        let same = TranscriptReview.merged(kept, with: [Self.segment(10, 11, "Also.")], replacing: nil)
        #expect(Self.texts(same) == [" One.", " Three.", " Also."])
    }

    @Test func aResentSegmentSayingWhatWasKeptIsNotAddedTwice() {
        let kept = [Self.segment(0, 2, "One.")]
        #expect(TranscriptReview.merged(kept, with: [Self.segment(1, 2.5, "one")], replacing: nil) == kept)
    }

    @Test func aLoopSentAgainReplacesWhatWasKeptInItsRegion() {
        let kept = [Self.segment(0, 2, "Where was I?"), Self.segment(2, 4, "I went home.", timed: true), Self.segment(9, 10, "Later.")]
        let resent = [Self.segment(2.1, 3.9, "I walked home slowly.")]
        let merged = TranscriptReview.merged(kept, with: resent, replacing: 2..<4)
        #expect(Self.texts(merged) == [" Where was I?", " I walked home slowly.", " Later."])
        // An empty re-send keeps the one occurrence.
        #expect(TranscriptReview.merged(kept, with: [], replacing: 2..<4) == kept)
    }

    @Test func replacingTakesOnlyTheWordsOfASegmentThatLieInTheRegion() {
        let kept = [Self.segment(0, 6, "So then I went home.", timed: true)]
        let merged = TranscriptReview.merged(kept, with: [Self.segment(2.4, 6, "I ran home.")], replacing: 2.4..<6)
        #expect(Self.texts(merged) == [" So then", " I ran home."])
        #expect(merged.first?.words?.map(\.word) == ["So", "then"])
        #expect(merged.first?.end == 2.4)
    }

    // MARK: - Text-only answers

    @Test(arguments: [
        (0, 1.0, nil, true), (0, 0.9, nil, false),        // no words for a checked stretch; too short to judge
        (4, 10.0, nil, true), (5, 10.0, nil, false),      // the floor: half a word a second
        (9, 10.0, 2.5, true), (10, 10.0, 2.5, false),     // 40 % of the recording's own rate
    ] as [(Int, Double, Double?, Bool)])
    func tooFewWordsForTheSpeech(words: Int, seconds: Double, rate: Double?, tooFew: Bool) {
        #expect(TranscriptReview.tooFewWords(words: words, speechSeconds: seconds, expectedWordsPerSecond: rate) == tooFew)
    }

    // MARK: - Repeat runs

    @Test func repeatRunsTakeTheShortestPhraseAndSkipPunctuationOnlyWords() {
        let runs = RepeatRun.find(in: ["No,", "no.", "—", "NO!", "no", "fine"], minimumRepeats: 3, longestPhrase: 12)
        #expect(runs == [RepeatRun(start: 0, keepEnd: 1, end: 5)])
        #expect(RepeatRun.find(in: ["a", "b", "a", "b", "a"], minimumRepeats: 3, longestPhrase: 12).isEmpty)
    }
}
