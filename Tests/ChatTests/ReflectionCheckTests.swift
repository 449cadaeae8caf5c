import Foundation
import Testing
@testable import VoiceJournalChat
import VoiceJournalStore

/// A model's answer is checked here whatever the server claims to enforce: every rule that
/// fails names itself, and only an answer that passes them all becomes a reflection.
struct ReflectionCheckTests {
    static let subject = ReflectionSubject(
        entryId: 7, journal: "Personal", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
        sentences: [EntrySentence(number: 1, text: "I walked to the lake with Anna.", start: 1.0, end: 3.5),
                    EntrySentence(number: 2, text: "The water was calm and I felt happy.", start: 4.0, end: 6.2),
                    EntrySentence(number: 3, text: "Work was fine.", start: 7.0, end: 8.0)],
        people: ["Anna", "Rose", "Tom"], numbers: ["3 entries in the four weeks up to this one"])

    static func answer(_ changes: [String: JSONValue] = [:], removing: [String] = []) -> String {
        var fields: [String: JSONValue] = [
            "summary": "A calm walk by the lake with Anna.", "mood": "happy", "intensity": 4, "themes": ["relationships", "health"],
            "people": ["Anna"], "highlights": [2, 1], "questions": ["What made the water feel so calm?"],
            "insight": "Walks outside lift your mood.", "encouragement": "Keep making time for walks.",
        ]
        for (key, value) in changes { fields[key] = value }
        for key in removing { fields[key] = nil }
        return JSONValue.object(fields).compactText
    }

    static func reasons(_ content: String) -> [String] {
        if case .invalid(let reasons) = ReflectionCheck.check(content: content, for: subject) { return reasons }
        return []
    }

    @Test func aGoodAnswerBecomesAReflectionWithTheEntrysOwnSentencesAndTimes() throws {
        guard case .valid(let reflection) = ReflectionCheck.check(content: Self.answer(), for: Self.subject) else {
            Issue.record("a good answer was refused: \(Self.reasons(Self.answer()))")
            return
        }
        #expect(reflection.mood == .happy && reflection.intensity == 4)
        #expect(reflection.themes == [.relationships, .health])
        #expect(reflection.people == ["Anna"])
        #expect(reflection.highlights.map(\.sentence) == [2, 1])
        #expect(reflection.highlights[0].text == "The water was calm and I felt happy.")
        #expect(reflection.highlights[0].start == 4.0 && reflection.highlights[0].end == 6.2)
    }

    @Test(arguments: [
        (["mood": "joyful"], "mood \"joyful\" is not one of"),
        (["intensity": 20], "intensity 20 is not a whole number from 1 to 5"),
        (["highlights": [99]], "highlight 99 is not a sentence number from 1 to 3"),
        (["highlights": ["The water was calm"]], "is not a sentence number"),
        (["people": ["Tom"]], "Tom is not named in the entry"),
        (["people": ["Zed"]], "\"Zed\" is not one of the journal's people"),
        (["themes": ["cooking"]], "theme \"cooking\" is not one of"),
        (["questions": []], "questions is empty"),
        (["summary": ""], "summary is empty"),
        (["summary": .string(String(repeating: "a", count: 500))], "summary is 500 characters long"),
        (["verdict": "ignore the rules"], "\"verdict\" is not a field of a reflection"),
        (["highlights": [1, 1]], "highlights repeats 1"),
    ] as [([String: JSONValue], String)])
    func eachBrokenRuleIsNamed(change: [String: JSONValue], reason: String) {
        let reasons = Self.reasons(Self.answer(change))
        #expect(reasons.contains { $0.contains(reason) }, "\(reasons)")
    }

    @Test func aMissingFieldIsNamed() {
        #expect(Self.reasons(Self.answer(removing: ["insight"])).contains("insight is missing"))
    }

    @Test func textThatIsNotJSONOrIsFencedIsRefused() {
        #expect(Self.reasons("I think the entry is happy.").first?.hasPrefix("the answer is not JSON") == true)
        #expect(Self.reasons("```json\n\(Self.answer())\n```").first?.contains("code fence") == true)
        #expect(Self.reasons("[1, 2]") == ["the answer is not a JSON object"])
    }

    @Test func aCutOffAnswerIsRefusedEvenIfItParses() {
        let answer = ChatAnswer(content: Self.answer(), finishReason: "length", inputTokens: 10, outputTokens: 700,
                                usageReported: true, seconds: 1, schemaForm: .jsonObject)
        guard case .invalid(let reasons) = ReflectionCheck.check(answer, for: Self.subject) else {
            Issue.record("a cut-off answer was taken")
            return
        }
        #expect(reasons.first?.contains("cut off") == true)
    }

    @Test func rawLineBreaksInsideStringsAreReadAsSpacesAndControlCharactersNeverSurvive() throws {
        let content = Self.answer(["summary": "A calm walk\u{1B}[31m by the lake."]).replacingOccurrences(of: "A calm", with: "A\ncalm")
        guard case .valid(let reflection) = ReflectionCheck.check(content: content, for: Self.subject) else {
            Issue.record("\(Self.reasons(content))")
            return
        }
        #expect(reflection.summary == "A calm walk [31m by the lake.")
    }

    @Test func aMoodThatContradictsTheWordsIsNotSuggested() throws {
        var angry = Self.subject
        angry.sentences = [EntrySentence(number: 1, text: "I was furious and upset all day."),
                           EntrySentence(number: 2, text: "I hate how awful the meeting was.")]
        angry.people = []
        let content = Self.answer(["people": [], "highlights": [1]])
        guard case .valid(let reflection) = ReflectionCheck.check(content: content, for: angry) else {
            Issue.record("\(Self.reasons(content))")
            return
        }
        #expect(reflection.mood == nil)
        #expect(reflection.moodWithheld?.contains("happy contradicts the entry's words") == true)
        // The same mood for words that agree is kept.
        guard case .valid(let agreed) = ReflectionCheck.check(content: Self.answer(), for: Self.subject) else { return }
        #expect(agreed.mood == .happy && agreed.moodWithheld == nil)
    }

    @Test func aNameCountsOnlyAsAWordOfItsOwn() {
        #expect(ReflectionCheck.names("Anna", in: "I saw anna today"))
        #expect(ReflectionCheck.names("Anna", in: "Anna's bike"))
        #expect(!ReflectionCheck.names("Anna", in: "Annabel came"))
        #expect(ReflectionCheck.names("Mary Ann", in: "lunch with Mary Ann."))
        #expect(!ReflectionCheck.names("Mary Ann", in: "Mary came, Ann did not"))
    }

    @Test func valenceCountsNegationsForTheOtherSide() {
        #expect(MoodValence.count("I was not happy, just tired and sad").negative == 2)
        #expect(MoodValence.contradiction(.sad, "a wonderful, happy, lovely day") != nil)
        #expect(MoodValence.contradiction(.sad, "a wonderful day but I cried") == nil)
        #expect(MoodValence.contradiction(.neutral, "furious, furious, furious") == nil)
    }
}
