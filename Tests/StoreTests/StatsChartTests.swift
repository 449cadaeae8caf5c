import Foundation
import GRDB
@testable import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// The parts of `stats` people look at, over a journal built with back-dated entries.
@Suite(.onTestThreads) struct StatsChartTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    let calendar: Calendar

    init() throws {
        journal = try TemporaryJournal()
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        calendar = berlin
    }

    /// A local time in Berlin.
    func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0) throws -> Date {
        try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)))
    }

    @discardableResult
    func add(_ date: Date, _ text: String, mood: Mood? = nil, journal name: String? = nil) throws -> EntryDetails {
        try store.addEntry(journal: name, title: nil, content: text, mood: mood, theme: nil, createdAt: date)
    }

    /// Daily entries just after midnight from 22 October to 3 November 2026: across the end of
    /// summer time (25 October, a 25-hour day) and the turn of the month.
    @Test func streaksRunAcrossTheEndOfSummerTimeAndTheTurnOfTheMonth() throws {
        for day in 0..<13 {
            let date = try #require(calendar.date(byAdding: .day, value: day, to: try at(2026, 10, 22, 0, 30)))
            try add(date, "day \(day)")
        }
        for day in 1...5 { try add(try at(2026, 9, day, 23, 30), "September \(day)") }
        let stats = try store.stats(now: try at(2026, 11, 3, 20), calendar: calendar)
        #expect(stats.currentStreak == 13)
        #expect(stats.longestStreak == 13)
        // Seen from 4 November (no entry yet) the streak still stands; from the 5th it is over.
        #expect(try store.stats(now: try at(2026, 11, 4, 23, 59), calendar: calendar).currentStreak == 13)
        #expect(try store.stats(now: try at(2026, 11, 5, 0, 1), calendar: calendar).currentStreak == 0)
        #expect(stats.month.entriesPerDay.prefix(4) == [1, 1, 1, 0])
        #expect(stats.month.firstWeekday == 7, "1 November 2026 is a Sunday")
        #expect(stats.month.today == 3 && stats.month.entriesPerDay.count == 30)
    }

    @Test func theMoodTrendAveragesEachOfTheLast30Days() throws {
        let now = try at(2026, 11, 3, 20)
        try add(try at(2026, 11, 3, 8), "good", mood: .happy)
        try add(try at(2026, 11, 3, 9), "bad", mood: .sad)
        try add(try at(2026, 11, 3, 10), "no mood")
        try add(try at(2026, 10, 25, 23, 30), "the long night", mood: .stressed)
        try add(try at(2026, 10, 4, 12), "31 days ago: outside", mood: .angry)
        let trend = try store.stats(now: now, calendar: calendar).moodTrend
        #expect(trend.count == 30)
        #expect(trend.first?.day == "2026-10-05" && trend.last?.day == "2026-11-03")
        #expect(trend.last == DayMood(day: "2026-11-03", entries: 2, averageScore: 3), "happy 5 and sad 1")
        #expect(trend.first { $0.day == "2026-10-25" }?.averageScore == 2, "stressed")
        #expect(trend.compactMap(\.averageScore).count == 2)
    }

    @Test func onThisDayFindsTheSameDateInEarlierYearsOnly() throws {
        let now = try at(2026, 11, 3, 20)
        try add(try at(2025, 11, 3, 7), "a year ago")
        try add(try at(2024, 11, 3, 23, 50), "two years ago, late")
        try add(try at(2025, 11, 4, 0, 10), "a year ago, the day after")
        try add(try at(2026, 11, 3, 8), "today")
        let found = try store.stats(now: now, calendar: calendar).onThisDay
        #expect(found.map(\.content) == ["a year ago", "two years ago, late"])
        // 29 February is remembered on 28 February in a year without it.
        try add(try at(2024, 2, 29), "leap day")
        #expect(try store.stats(now: try at(2026, 2, 28), calendar: calendar).onThisDay.map(\.content) == ["leap day"])
    }

    @Test func totalsPerJournalAndMinutesRecordedAndTranscribed() throws {
        _ = try store.createJournal(name: "Travel")
        let now = try at(2026, 11, 3, 20)
        try add(now, "typed", journal: "Travel")
        try add(now, "typed at home")
        let files = (0..<2).map { index in
            Recording(path: "/music/take\(index).wav", sha256: String(repeating: "\(index)", count: 64), durationSeconds: 90,
                      sampleRate: 16000, channels: 1, format: "wav", state: .complete)
        }
        let outcomes = try store.queue.addBatchFiles(files, journalName: "Travel", now: now)
        try store.pool.write { db in
            var transcript = Transcript(recordingId: outcomes[0].recordingId, text: "heard", model: "whisper-1")
            try transcript.insert(db)
        }
        let stats = try store.stats(now: now, calendar: calendar)
        #expect(stats.entriesByJournal == ["Travel": 3, "Personal": 1])
        #expect(stats.minutesRecorded == 3 && stats.minutesTranscribed == 1.5)
        let travel = try store.stats(journal: "Travel", now: now, calendar: calendar)
        #expect(travel.minutesRecorded == 3 && travel.totalEntries == 3)
        #expect(try store.stats(journal: "Personal", now: now, calendar: calendar).minutesRecorded == 0)
    }

    @Test func dayNumbersTurnBackIntoDates() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for text in ["2000-01-01", "2024-02-29", "2026-12-31", "1999-03-01"] {
            let date = try #require(ISO8601DateFormatter().date(from: text + "T12:00:00Z"))
            #expect(JournalStats.dateText(dayNumber: try #require(JournalStats.dayNumber(date, calendar))) == text)
        }
    }
}
