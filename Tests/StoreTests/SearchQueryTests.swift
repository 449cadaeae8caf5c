import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The search language as FTS5 receives it, and the timeline of corrected transcripts.
@Suite(.onTestThreads) struct SearchQueryTests {
    @Test(arguments: [
        ("harbour rain", "harbour AND rain"),
        ("don't e-mail Jörg", "\"don't\" AND \"e-mail\" AND Jörg"),
        ("harbour or deploy", "harbour AND or AND deploy"),
        ("harbour OR deploy", "harbour OR deploy"),
        ("harb*", "harb*"),
        ("\"harbour lights\"", "\"harbour lights\""),
        ("\"harb light\"*", "\"harb light\"*"),
        ("\"AND\" x", "\"AND\" AND x"),
        ("a NOT b OR c AND d", "a NOT b OR c AND d"),
        ("(a OR b) c", "(a OR b) AND c"),
        ("NEAR(garden \"spring rain\", 5)", "NEAR(garden \"spring rain\", 5)"),
        ("near(garden)", "near AND (garden)"),
        ("-- – harbour", "harbour"),
    ])
    func queriesBecomeSafeFTS5Patterns(_ query: String, _ pattern: String) throws {
        #expect(try SearchQuery(query).pattern == pattern)
        // SQLite's own reader takes it too.
        _ = try FTS5Pattern(rawPattern: pattern, allowedColumns: ["title", "body"])
    }

    @Test(arguments: [
        ("harbour AND", "AND needs words after it"),
        ("OR harbour", "OR needs words before it"),
        ("\"harbour", "a quoted phrase has no closing \""),
        ("(harbour", "a ( is never closed"),
        ("harbour)", "a ) has no ( before it"),
        ("NEAR(harbour)", "NEAR( ) needs two or more words"),
        ("NEAR(a b, -1)", "NEAR( ) takes a whole number of words after its comma"),
        ("a NOT NOT b", "NOT needs words after it, not NOT"),
        ("\"...\"", "\"...\" holds no word to look for"),
    ])
    func aMalformedQuerySaysWhatIsWrong(_ query: String, _ problem: String) throws {
        let error = try #require(throws: StoreError.self) { try SearchQuery(query) }
        #expect(error.kind == .invalidInput)
        #expect(error.description.hasPrefix("cannot search for \(query): \(problem)"), "\(error.description)")
        #expect(!error.description.contains("\n"))
    }

    @Test func nothingToLookForIsRefused() throws {
        for query in ["", "  ", "AND", "- …"] {
            let error = try #require(throws: StoreError.self) { try SearchQuery(query) }
            #expect(error.description == "search needs at least one word")
        }
    }

    /// The last guard: a pattern FTS5 would refuse (none the reading writes) is refused with
    /// the same kind of sentence, found on the empty probe table; a good one passes.
    @Test func aPatternFTS5RefusesIsRefusedBeforeAnySearch() throws {
        for pattern in ["a AND", "(((a", "\"open"] {
            let error = try #require(throws: StoreError.self) { try SearchQuery.check(pattern, text: pattern) }
            #expect(error.kind == .invalidInput)
            #expect(error.description.hasPrefix("cannot search for \(pattern): SQLite's full-text search does not accept it;"))
        }
        try SearchQuery.check("harbour AND \"spring rain\"* OR NEAR(a b, 5)", text: "x")
    }

    static let segments = [
        Transcript.Segment(start: 0, end: 2, text: " We walked to the harbor"),
        Transcript.Segment(start: 2, end: 5, text: " and met Yorg there."),
        Transcript.Segment(start: 5, end: 7, text: " Then home."),
    ]

    @Test func aCorrectionKeepsEachWordInTheSegmentItWasHeardIn() {
        let realigned = TranscriptTimeline.realigned(Self.segments, to: "We walked to the harbour and met Jörg and Anneliese there. Then home.")
        #expect(realigned == [
            Transcript.Segment(start: 0, end: 2, text: " We walked to the harbour"),
            Transcript.Segment(start: 2, end: 5, text: " and met Jörg and Anneliese there."),
            Transcript.Segment(start: 5, end: 7, text: " Then home."),
        ])
        // A segment whose words are all gone is dropped; new words at the start join the first.
        #expect(TranscriptTimeline.realigned(Self.segments, to: "Oh, we walked to the harbor. Then home.").map(\.start) == [0, 5])
        #expect(TranscriptTimeline.realigned([], to: "anything").isEmpty)
    }

    @Test func aPlaceInTheTextFallsInTheSegmentThatHoldsIt() {
        let transcript = Transcript(recordingId: 1, text: "We walked to the harbor and met Yorg there. Then home.",
                                    model: "whisper-1", segments: Self.segments)
        let offset = { (word: String) in transcript.text.unicodeScalars.distance(
            from: transcript.text.unicodeScalars.startIndex, to: transcript.text.range(of: word)!.lowerBound.samePosition(in: transcript.text.unicodeScalars)!) }
        #expect(TranscriptTimeline.segmentStart(atScalarOffset: offset("harbor"), of: transcript) == 0)
        #expect(TranscriptTimeline.segmentStart(atScalarOffset: offset("Yorg"), of: transcript) == 2)
        #expect(TranscriptTimeline.segmentStart(atScalarOffset: offset("home"), of: transcript) == 5)
        #expect(TranscriptTimeline.segmentStart(atScalarOffset: 3, of: Transcript(recordingId: 1, text: "x", model: "m")) == nil)
    }
}
