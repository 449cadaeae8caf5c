import Foundation
@testable import VoiceJournalStore
import Testing

@Suite struct StatsTests {
    @Test(arguments: [
        ([Int](), 100, 0, 0),
        ([100], 100, 1, 1),
        ([99], 100, 1, 1),            // yesterday still counts: today's entry may come
        ([98], 100, 0, 1),            // a missed day breaks it
        ([96, 97, 98, 99, 100], 100, 5, 5),
        ([90, 91, 92, 93, 99, 100], 100, 2, 4),
        ([90, 91, 92, 98, 99], 100, 2, 3),
    ])
    func countsStreaksOfConsecutiveDays(days: [Int], today: Int, current: Int, longest: Int) {
        let result = JournalStats.streaks(days: Set(days), today: today)
        #expect(result.current == current)
        #expect(result.longest == longest)
    }

    @Test func countsDaysInTheLocalTimeZoneNotUTC() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        // 23:30 and 00:30 Los Angeles time: two local days, though the same UTC day.
        let late = try #require(ISO8601DateFormatter().date(from: "2026-11-20T07:30:00Z"))
        let early = try #require(ISO8601DateFormatter().date(from: "2026-11-20T08:30:00Z"))
        let stats = JournalStats(entries: [(late, .text, .happy), (early, .voice, .sad)], now: early, calendar: calendar)
        #expect(stats.currentStreak == 2)
        #expect(stats.entriesByKind == ["text": 1, "voice": 1, "gratitude": 0])
        #expect(stats.moods["happy"] == 1 && stats.moods["sad"] == 1 && stats.moods["angry"] == 0)
        #expect(stats.averageMoodScore == 3, "happy 5 and sad 1")
    }

    @Test func dayNumbersRunOnAcrossMonthsAndLeapYears() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let iso = ISO8601DateFormatter()
        let day = { (text: String) in JournalStats.dayNumber(iso.date(from: text + "T12:00:00Z")!, calendar)! }
        #expect(day("2000-01-01") == 2_451_545)
        #expect(day("2024-03-01") - day("2024-02-28") == 2)
        #expect(day("2025-01-01") - day("2024-12-31") == 1)
    }

    @Test func entriesThisWeekStartOnMondayInTheLocalTimeZone() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let iso = ISO8601DateFormatter()
        let now = try #require(iso.date(from: "2026-11-22T20:00:00Z"))           // Sunday, either zone
        let entries: [(createdAt: Date, kind: EntryKind, mood: Mood?)] = try [
            "2026-11-15T23:50:00Z",   // Sunday before, in either zone
            "2026-11-16T07:00:00Z",   // Monday 07:00 UTC, but Sunday 23:00 in Los Angeles
            "2026-11-16T09:00:00Z",   // Monday in either zone
        ].map { (try #require(iso.date(from: $0)), .text, nil) }
        #expect(JournalStats(entries: entries, now: now, calendar: calendar).entriesThisWeek == 2)
        calendar.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let local = JournalStats(entries: entries, now: now, calendar: calendar)
        #expect(local.entriesThisWeek == 1)
        #expect(local.averageMoodScore == nil)
    }
}
