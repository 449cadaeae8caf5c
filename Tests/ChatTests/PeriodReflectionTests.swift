import Foundation
import Testing
@testable import VoiceJournalChat
import VoiceJournalStore
import VoiceJournalTestSupport

/// Weeks and months as the calendar has them in the user's zone, a model's answer on a
/// period checked whatever the server enforces, and a prompt that stays near its budget
/// however many entries the period has.
struct PeriodReflectionTests {
    static var berlin: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }

    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0) -> Date {
        berlin.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    @Test func weeksAreISOWeeksFromMondayInTheUsersZone() {
        // 1 January 2026 is a Thursday: its week is the year's first, from Monday 29 December.
        let first = JournalPeriod.week(containing: Self.local(2026, 1, 1, 12), calendar: Self.berlin)
        #expect(first.label == "2026-W01" && first.start == Self.local(2025, 12, 29) && first.end == Self.local(2026, 1, 5))
        // Sunday 23:30 is the week's last half hour; Monday 00:00 starts the next.
        #expect(JournalPeriod.week(containing: Self.local(2026, 1, 4, 23).addingTimeInterval(1800), calendar: Self.berlin).label == "2026-W01")
        #expect(JournalPeriod.week(containing: Self.local(2026, 1, 5), calendar: Self.berlin).label == "2026-W02")
        // 2026 has 53 ISO weeks; the last ends on Sunday 3 January 2027.
        let last = JournalPeriod.week(containing: Self.local(2026, 12, 31, 12), calendar: Self.berlin)
        #expect(last.label == "2026-W53" && last.end == Self.local(2027, 1, 4))
        // The week of the clock change is 167 hours long, and its days are seven.
        let change = JournalPeriod.week(containing: Self.local(2026, 3, 25, 12), calendar: Self.berlin)
        #expect(change.end.timeIntervalSince(change.start) == 167 * 3600)
        #expect(change.parts(calendar: Self.berlin).map(\.label) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(change.parts(calendar: Self.berlin).last?.end == change.end)
        #expect(change.previous(calendar: Self.berlin).label == "2026-W12")
    }

    @Test func monthsAreCalendarMonthsTheirWeeksCutAtTheEdges() throws {
        let february = try #require(JournalPeriod.month(year: 2028, month: 2, calendar: Self.berlin))
        #expect(february.label == "2028-02" && february.start == Self.local(2028, 2, 1) && february.end == Self.local(2028, 3, 1))
        // 1 February 2028 is a Tuesday; a leap year's February has 29 days.
        #expect(february.parts(calendar: Self.berlin).map(\.label) == ["1-6", "7-13", "14-20", "21-27", "28-29"])
        #expect(JournalPeriod.month(year: 2026, month: 1, calendar: Self.berlin)?.previous(calendar: Self.berlin).label == "2025-12")
        #expect(JournalPeriod.month(year: 2026, month: 13, calendar: Self.berlin) == nil)
        #expect(JournalPeriod.month(containing: Self.local(2026, 3, 31, 23), calendar: Self.berlin).label == "2026-03")
    }

    static let numbers = PeriodNumbers(
        entries: 3, minutesSpoken: 2.5, words: 40, moods: ["happy": 2, "sad": 1], moodEntries: 3, averageMoodScore: 4,
        previousEntries: 0, previousAverageMoodScore: nil, trend: [], themes: [PeriodNumbers.Count(name: "work", count: 2)],
        people: [PeriodNumbers.PersonCount(name: "Anna", mentions: 1, answers: 0)], streakDays: 2, lastEntryAt: nil)

    static func subject(entries count: Int = 3, text: String = "A calm day by the lake. Anna came along.") -> PeriodSubject {
        let period = JournalPeriod.week(containing: local(2026, 3, 11, 12), calendar: berlin)
        let entries = (0..<count).map { index in
            PeriodEntry(id: Int64(100 + index), createdAt: period.start.addingTimeInterval(Double(index) * 600),
                        mood: .happy, theme: .work, text: PeriodEntry.start(of: text))
        }
        var numbers = numbers
        numbers.entries = count
        return PeriodSubject(period: period, journal: nil, numbers: numbers, entries: entries)
    }

    static func answer(_ changes: [String: JSONValue] = [:], removing: [String] = []) -> String {
        var fields: [String: JSONValue] = ["narrative": "A calm week: the lake (#100), then work (#101).", "cited": [100, 101],
                                           "questions": ["What made the lake calm?"], "encouragement": "Keep walking."]
        for (key, value) in changes { fields[key] = value }
        for key in removing { fields[key] = nil }
        return JSONValue.object(fields).compactText
    }

    static func reasons(_ content: String) -> [String] {
        if case .invalid(let reasons) = PeriodCheck.check(content: content, for: subject()) { return reasons }
        return []
    }

    @Test func aGoodAnswerBecomesAPeriodReflection() {
        guard case .valid(let reflection) = PeriodCheck.check(content: Self.answer(), for: Self.subject()) else {
            Issue.record("a good answer was refused: \(Self.reasons(Self.answer()))")
            return
        }
        #expect(reflection.cited == [100, 101] && reflection.questions.count == 1)
    }

    @Test(arguments: [
        (answer(["cited": [100, 7]]), "cited entry 7 is not an entry of this week"),
        (answer(["narrative": "Remember #42?"]), "the narrative cites #42, which is not an entry of this week"),
        (answer(["cited": []]), "cited is empty"),
        (answer(["cited": ["100"]]), "cited \"100\" is not an entry's number"),
        (answer(["cited": [100, 100]]), "cited repeats 100"),
        (answer(["cited": [100, 101, 102, 100, 101, 102]]), "cited has 6 items (at most 5)"),
        (answer(["narrative": .string(String(repeating: "a", count: 601))]), "narrative is 601 characters long (at most 600)"),
        (answer(["questions": ["One?", "Two?", "Three?"]]), "questions has 3 items (at most 2)"),
        (answer(["questions": []]), "questions is empty"),
        (answer(["mood": "happy"]), "\"mood\" is not a field of a reflection"),
        (answer(removing: ["encouragement"]), "encouragement is missing"),
        ("```json\n" + answer() + "\n```", "code fence"),
    ])
    func eachBrokenRuleNamesItself(content: String, reason: String) {
        let reasons = Self.reasons(content)
        #expect(reasons.contains { $0.contains(reason) }, "\(reasons)")
    }

    @Test func anAnswerCutAtTheTokenLimitIsNotTaken() {
        let answer = ChatAnswer(content: Self.answer(), finishReason: "length", inputTokens: 1, outputTokens: 1, usageReported: true,
                                seconds: 0, schemaForm: nil)
        #expect(PeriodCheck.check(answer, for: Self.subject()) == .invalid(["the answer was cut off at the token limit before it ended"]))
    }

    @Test func thePromptStaysNearItsBudgetAndListsEveryEntry() throws {
        // A few entries: their first sentences whole.
        let few = PeriodPrompt.request(for: Self.subject(), calendar: Self.berlin)
        let fewText = try #require(few.messages.last?.content)
        #expect(fewText.contains("#100 Mon 9 Mar, happy, work: A calm day by the lake. Anna came along."), "\(fewText)")
        #expect(fewText.contains("- Entries: 3\n") && fewText.contains("- Mood score: 4.0 of 5 over 3 entries with a mood"), "\(fewText)")
        // Sixty long entries: cut to fit, every one still listed and citable.
        let long = String(repeating: "Words of a long day that go on and on. ", count: 20)
        let many = Self.subject(entries: 60, text: long)
        let request = PeriodPrompt.request(for: many, calendar: Self.berlin)
        #expect(request.estimatedTokens <= PeriodPrompt.tokenBudget, "\(request.estimatedTokens)")
        let user = try #require(request.messages.last?.content)
        for id in many.entryIds { #expect(user.contains("#\(id) ")) }
        let cited = request.schema?["properties"]?["cited"]?["items"]?["enum"]?.arrayValue
        #expect(cited == many.entryIds.map { .integer(Int($0)) })
        // Without their words (a model whose context is too small): the list alone.
        let bare = PeriodPrompt.request(for: many, texts: false, calendar: Self.berlin)
        #expect(bare.messages.last?.content.contains("Words of a long day") == false)
        #expect(bare.estimatedTokens < request.estimatedTokens)
    }

    @Test func aStoredRecordReadsBack() throws {
        let record = PeriodRecord(journal: "Work", period: Self.subject().period, numbers: Self.numbers,
                                  reflection: PeriodReflection(narrative: "n", cited: [100], questions: ["q?"], encouragement: "e"))
        let stored = StoredReflection(entryId: nil, periodKind: .week, status: .valid, reasons: [], fields: record.encoded, model: "m",
                                      endpointHost: "h", promptVersion: PeriodPrompt.version, requests: 1, inputTokens: 1, outputTokens: 1,
                                      seconds: 0, cost: nil, createdAt: Date())
        #expect(PeriodRecord.decode(stored) == record)
    }
}

/// The period's numbers straight from the store: what SQL counts in the edge cases a month
/// of real entries rarely has.
struct PeriodNumbersStoreTests {
    @Test func wordsAreSplitAtAnyWhitespaceAndANameIsMatchedAsAWordNotALikePattern() throws {
        let journal = try TemporaryJournal()
        let store = journal.store
        let calendar = PeriodReflectionTests.berlin
        for name in ["Anna", "An_a", "Ro%e", "Mary Ann"] { _ = try store.addPerson(name: name, relationship: "friend", email: nil) }
        let day = PeriodReflectionTests.local(2026, 3, 11, 12)
        for text in ["one  two\tthree\nfour\u{00A0}five\u{3000}six", "Anna's day with Annabel and mary  ann.", "Rose came."] {
            _ = try store.addEntry(journal: nil, title: nil, content: text, mood: .sad, theme: nil, createdAt: day)
        }
        let week = JournalPeriod.week(containing: day, calendar: calendar)
        let numbers = try store.periodNumbers(week, calendar: calendar)
        #expect(numbers.entries == 3 && numbers.words == 6 + 7 + 2)
        #expect(numbers.people == [PeriodNumbers.PersonCount(name: "Anna", mentions: 1, answers: 0),
                                   PeriodNumbers.PersonCount(name: "Mary Ann", mentions: 1, answers: 0)])
        #expect(numbers.averageMoodScore == Double(Mood.sad.score) && numbers.moods["sad"] == 3 && numbers.moods["happy"] == 0)
        #expect(numbers.streakDays == 1 && numbers.trend.map(\.entries) == [0, 0, 3, 0, 0, 0, 0])
        #expect(try store.periodNumbers(week.previous(calendar: calendar), calendar: calendar).entries == 0)
    }
}
