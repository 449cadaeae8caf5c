import Foundation
import Testing
@testable import VoiceJournalChat

/// A question read for what to search and which dates it names.
struct AskQueryTests {
    @Test func meaningfulWordsArePrefixesAndNamesStayWhole() {
        let query = AskQuery("What did Grandma Rose say about Anna's garden in the spring?", names: ["Anna", "Grandma Rose", "Tom"])
        #expect(query.terms == ["\"grandma rose\"", "\"anna\"", "\"garden\"*", "\"spring\"*"])
        #expect(query.pattern == "\"grandma rose\" OR \"anna\" OR \"garden\"* OR \"spring\"*")
        // Nothing in a question is FTS5 syntax.
        #expect(AskQuery("walk* NEAR(\"xyz\" OR yzw) -- AND x").terms == ["\"walk\"*", "\"near\"*", "\"xyz\"*", "\"yzw\"*"])
        #expect(AskQuery("What did I do?").pattern.isEmpty)
        #expect(AskQuery("in 2026 the 3 dogs").terms == ["\"2026\"*", "\"3\"", "\"dogs\"*"])
        #expect(AskQuery("What did Dr. Okafor say about the TV?").terms == ["\"dr\"", "\"okafor\"*", "\"tv\""], "short words whole")
        #expect(AskQuery("How long will the brakes last? What time is the long walk?").terms
                    == ["\"brakes\"*", "\"last\"*", "\"long\"*", "\"walk\"*"], "how the question is asked is not searched")
    }

    @Test func aQuestionsKindIsSeenInTheSentenceThatAnswersIt() {
        #expect(AskRanking.cues(of: "When does Mum arrive?") == [.time])
        #expect(AskRanking.cues(of: "Where's the umbrella?") == [.place])
        #expect(AskRanking.cues(of: "How long will it last, and what did the vet tell me?") == [.duration, .speech])
        #expect(AskRanking.cues(of: "What is Ines's number? Who fed the cat?") == [.number, .person])
        func held(_ sentence: String) -> Set<AskRanking.Cue> { AskRanking.holdings(of: sentence, words: AskQuery.words(sentence)) }
        #expect(held("Mum's train gets in at half past four on Saturday.").isSuperset(of: [.time, .number]))
        #expect(held("I left my glasses in the glovebox of the car.") == [.place])
        #expect(held("We booked the cottage in Cornwall.").contains(.place), "a name after a place word")
        #expect(held("The brakes have about a year left.") == [.duration])
        #expect(held("The vet said half a cup.").isSuperset(of: [.speech, .number]))
        #expect(held("Had two glasses of wine.") == [.number], "no place, no time")
        #expect(held("I met Anna today.") == [.person, .time])
        // A rare word outweighs a common one; a sentence holding the asked kind wins a tie.
        let ranking = AskRanking(AskQuery("Where did I put my glasses?"), question: "Where did I put my glasses?",
                                 counts: ["\"put\"*": 900, "\"glasses\"*": 3], entries: 1000)
        #expect(ranking.score("I left my glasses in the car.") > ranking.score("Had two glasses of wine."))
        #expect(ranking.score("Had two glasses of wine.") > ranking.score("I put the shelf up in the hall."))
        #expect(AskRanking.stem("tulips") == "tulip" && AskRanking.stem("glasses") == "glass" && AskRanking.stem("feeding") == "feed")
    }

    let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    func day(_ text: String) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }

    @Test(arguments: [
        ("How often was I anxious last week?", "last week", "2026-11-16", "2026-11-23", "How often was I anxious ?"),
        ("what did I do yesterday", "yesterday", "2026-11-25", "2026-11-26", "what did I do"),
        ("Anything about Tom in October?", "in October", "2026-10-01", "2026-11-01", "Anything about Tom ?"),
        ("walks in December", "in December", "2025-12-01", "2026-01-01", "walks"),
        ("since Monday, how was sleep", "since Monday", "2026-11-23", "2026-11-27", ", how was sleep"),
        ("moods this month", "this month", "2026-11-01", "2026-12-01", "moods"),
        ("runs in the last 10 days", "in the last 10 days", "2026-11-17", "2026-11-27", "runs"),
        ("trips in 2025", "in 2025", "2025-01-01", "2026-01-01", "trips"),
    ])
    func aPeriodInTheQuestionIsReadInTheUsersZone(question: String, phrase: String, start: String, end: String, rest: String) throws {
        // Thursday 26 November 2026, 10:00 in Berlin.
        let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 10))!
        let dates = try #require(QuestionDates.read(question, now: now, calendar: calendar))
        #expect(dates.phrase == phrase)
        #expect(dates.start == day(start) && dates.end == day(end), "\(dates.start) – \(dates.end)")
        #expect(dates.rest == rest)
        #expect(QuestionDates.read("What did Anna say about the lake?", now: now, calendar: calendar) == nil)
    }
}

/// Citations checked against the passages sent.
struct AskCitationsTests {
    static let passages = (1...3).map { AskPassage(number: $0, entryId: Int64($0 * 10), journal: "P", date: Date(), start: nil, end: nil, text: "t") }

    @Test func goodCitationsStayBadOnesGoAndWordsInBracketsAreNotCitations() {
        let checked = AskCitations.check("Calm [2][4]. Walks [1, 3, 0] and [sic] words [ 3 ]. Late [12345678901234567890123].", passages: Self.passages)
        #expect(checked.text == "Calm [2]. Walks [1, 3] and [sic] words [3]. Late.")
        #expect(checked.cited == [2, 1, 3] && checked.removed == [4, 0, Int.max])
        let none = AskCitations.check("Nothing in your journal says.", passages: [])
        #expect(none.text == "Nothing in your journal says." && none.cited.isEmpty && none.removed.isEmpty)
    }
}
