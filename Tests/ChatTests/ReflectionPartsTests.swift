import Foundation
import Testing
@testable import VoiceJournalChat

/// How an entry too long for the context is cut: runs of about even size within the budget,
/// numbered as the entry is, and the plan `--dry-run` shows.
struct ReflectionPartsTests {
    /// Every run of `sizes` at `budget`, as lengths.
    static func runs(_ sizes: [Int], budget: Int, atLeast: Int = 1) -> [Int] {
        var lengths: [Int] = []
        var next = 0
        while next < sizes.count {
            let length = ReflectionParts.runLength(sizes[next...], budget: budget, atLeast: atLeast)
            lengths.append(length)
            next += length
        }
        return lengths
    }

    @Test func runsAreAboutEvenAndWithinTheBudget() {
        // Ten of 100 bytes in 400: three runs, not 4 + 4 + 2.
        #expect(Self.runs(Array(repeating: 100, count: 10), budget: 400) == [4, 3, 3])
        // Uneven sizes: never over the budget, every item once.
        let sizes = (0..<97).map { 40 + ($0 * 37) % 90 }
        let lengths = Self.runs(sizes, budget: 700)
        #expect(lengths.reduce(0, +) == sizes.count)
        var next = 0
        for length in lengths {
            #expect(sizes[next..<(next + length)].reduce(0, +) <= 700)
            next += length
        }
        // One item over the budget is a run of its own (the server decides); runs of parts
        // take two at least, and a last one left alone joins the run before.
        #expect(Self.runs([50, 900, 50], budget: 400) == [1, 1, 1])
        #expect(Self.runs([300, 300, 300], budget: 400, atLeast: 2) == [3])
        #expect(Self.runs(Array(repeating: 100, count: 8), budget: 200, atLeast: 2) == [2, 2, 2, 2])
    }

    static func subject(sentences count: Int) -> ReflectionSubject {
        let sentences = (1...count).map { EntrySentence(number: $0, text: "On day \($0) I walked to the river and sat for a while.",
                                                        start: Double($0), end: Double($0) + 0.9) }
        return ReflectionSubject(entryId: 7, journal: "Days", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
                                 sentences: sentences, people: ["Anna"], numbers: ["3 entries in the four weeks up to this one"])
    }

    @Test func anEntryThatFitsIsAskedAtOnceAndALongOneInPartsNumberedAsTheEntryIs() throws {
        let short = ReflectionParts(subject: Self.subject(sentences: 20), contextTokens: 8192).plan()
        #expect(short.parts == 1 && short.first == ReflectionPrompt.request(for: Self.subject(sentences: 20)))
        let long = ReflectionParts(subject: Self.subject(sentences: 400), contextTokens: 2048)
        let plan = long.plan()
        #expect(plan.parts >= 5)
        #expect(long.fits(plan.first))
        let text = try #require(plan.first.messages.last?.content)
        #expect(text.hasPrefix("Sentences 1 to ") && text.contains("\n1. On day 1 ") && !text.contains("The journal so far"))
        // Highlights only from the part's sentences.
        let enumerated = plan.first.schema?["properties"]?["highlights"]?["items"]?["enum"]?.arrayValue?.compactMap(\.integerValue)
        #expect(enumerated?.first == 1 && (enumerated?.count ?? 0) < 400)
    }

    @Test func theRequestAsAWholeGetsThePartsReflectionsAndOffersOnlyTheirHighlightsAndTheNamedPeople() throws {
        let subject = Self.subject(sentences: 300)
        func digest(_ first: Int, _ last: Int, highlight: Int) -> ReflectionParts.Digest {
            let sentence = subject.sentences[highlight - 1]
            return ReflectionParts.Digest(first: first, last: last, reflection: Reflection(
                summary: "Walks by the river.", mood: .neutral, intensity: 2, themes: [.health], people: [],
                highlights: [.init(sentence: highlight, text: sentence.text, start: sentence.start, end: sentence.end)],
                questions: ["Why the river?"], insight: "Walking steadies the day.", encouragement: "Keep going."))
        }
        let request = ReflectionPrompt.whole(of: [digest(1, 150, highlight: 40), digest(151, 300, highlight: 222)], subject: subject, stretch: false)
        let text = try #require(request.messages.last?.content)
        #expect(text.hasPrefix("Journal entry 7 (Days, ") && text.contains("it was read in 2 parts"))
        #expect(text.contains("Sentences 151 to 300:\nSummary: Walks by the river.\nMood: neutral, intensity 2. Themes: health. People: none."))
        #expect(text.contains("Highlight 222: On day 222 I walked"))
        // The transcript is not sent again; Anna is in the journal but not in these words.
        #expect(!text.contains("\n5. ") && text.contains("People the entry names: none"))
        let properties = try #require(request.schema?["properties"])
        #expect(properties["highlights"]?["items"]?["enum"] == [40, 222])
        #expect(properties["people"]?["maxItems"] == 0)
    }
}
