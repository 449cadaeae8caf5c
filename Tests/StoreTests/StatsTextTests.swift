import Foundation
@testable import VoiceJournalPages
@testable import VoiceJournalStore
import VoiceJournalTerminal
import Testing
import VoiceJournalTestSupport

/// `stats` as text: the same lines `StatsCommandTests` reads from the command, from stats
/// shaped like its journal (13 days in a row to 3 November 2026, moods cycling happy,
/// neutral, sad, angry from 22 October).
@Suite(.onTestThreads) struct StatsTextTests {
    static func november() throws -> JournalStats {
        var stats = JournalStats(entries: [], now: Date())
        stats.currentStreak = 13
        stats.longestStreak = 14
        stats.month = MonthCounts(year: 2026, month: 11, firstWeekday: 7, today: 3,
                                  entriesPerDay: [1, 3, 1] + Array(repeating: 0, count: 27))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = try #require(utc.date(from: DateComponents(year: 2026, month: 10, day: 5, hour: 12)))
        let scores: [Double] = [5, 3, 2, 1]
        stats.moodTrend = try (0..<30).map { offset in
            let day = try #require(utc.date(byAdding: .day, value: offset, to: start))
            let parts = utc.dateComponents([.year, .month, .day], from: day)
            let name = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            return offset < 17 ? DayMood(day: name, entries: 0, averageScore: nil)
                               : DayMood(day: name, entries: 1, averageScore: scores[(offset - 17) % 4])
        }
        return stats
    }

    @Test func theReportDrawsTheMonthAndTheMoodTrendInUnicode() throws {
        let text = try Self.november().lines(now: Date(), charset: .unicode).joined(separator: "\n") + "\n"
        #expect(text.contains("""
            November 2026
            Mo Tu We Th Fr Sa Su
                              ▒▒  1
            ██ ▒▒                 2–3
            less ·░▒▓█ more  (busiest day: 3 entries)
            """), "\(text)")
        // Each score named by its moods; the bars two columns a day in 80 columns; the first day,
        // the Mondays and the last day (the Monday before it left unlabelled) under their bars.
        #expect(text.contains("""
            Mood, last 30 days (2026-10-05 to 2026-11-03), each day's average:
            happy             5 ┤                                  █       █       █       █
            grateful, excited 4 ┤                                  █       █       █       █
            neutral           3 ┤                                  █ █     █ █     █ █     █
            anxious, stressed 2 ┤                                  █ █ █   █ █ █   █ █ █   █
            sad, angry        1 ┤                                  █ █ █ █ █ █ █ █ █ █ █ █ █
                                └┬─────────────┬─────────────┬─────────────┬─────────────┬─┬
                                 Oct 5         Oct 12        Oct 19        Oct 26      Nov 3
            """), "\(text)")
        #expect(text.contains("Current streak: 13 days") && text.contains("Longest streak: 14 days"))
    }

    @Test func withoutUnicodeTheReportIsPlainASCII() throws {
        let text = try Self.november().lines(now: Date(), charset: .ascii).joined(separator: "\n") + "\n"
        #expect(text.contains("                  ++  1\n## ++                 2-3\nless .:+*# more"), "\(text)")
        #expect(text.contains("""
            neutral           3 |                                  # #     # #     # #     #
            """), "\(text)")
        #expect(text.contains("                    ++-------------+-------------+-------------+-------------+-+\n"))
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func theMoodChartFitsANarrowTerminal() throws {
        let lines = try Self.november().moodTrendLines(width: 60, charset: .unicode)
        #expect(lines.dropFirst().allSatisfy { $0.count <= 60 }, "the chart under its heading: \(lines)")
        // One column a day beside the names (21 + 30).
        #expect(lines[5] == "sad, angry        1 ┤                 █████████████", "\(lines)")
        #expect(lines[7] == "                     Oct 5  Oct 12 Oct 19 Oct 26  Nov 3", "\(lines)")
    }

    @Test func theMoodChartNamesEachScoresMoodsAndMarksTheFirstTheLastDayAndEachMonday() {
        #expect(JournalStats.moodNames == [5: "happy", 4: "grateful, excited", 3: "neutral", 2: "anxious, stressed", 1: "sad, angry"])
        // Friday 30 October to Tuesday 3 November 2026: Monday the 2nd.
        let days = ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"]
        #expect(JournalStats.dayTicks(days) == [.init(index: 0, label: "Oct 30"), .init(index: 4, label: "Nov 3"),
                                                .init(index: 3, label: "Nov 2")])
        #expect(JournalStats.dayTicks(["2026-11-02"]) == [.init(index: 0, label: "Nov 2")])
        #expect(JournalStats.dayTicks([]).isEmpty)
    }

    @Test func onThisDayListsEachEarlierYearsEntryWithHowLongAgo() throws {
        let journal = try TemporaryJournal()
        let calendar = Calendar.current
        func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int) throws -> Date {
            try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour)))
        }
        let snow = try journal.store.addEntry(journal: nil, title: nil, content: "first snow last year", mood: .excited,
                                              theme: nil, createdAt: try local(2025, 11, 3, 9))
        let flat = try journal.store.addEntry(journal: nil, title: nil, content: "moved into the flat", mood: nil,
                                              theme: nil, createdAt: try local(2024, 11, 3, 15))
        let lines = JournalStats.onThisDayLines([snow, flat], now: try local(2026, 11, 3, 12))
        #expect(lines.count == 3 && lines.first == "On this day:")
        #expect(lines[1].contains("2025-11-03 09:00  1 year ago") && lines[1].contains("first snow last year"))
        #expect(lines[2].contains("2024-11-03 15:00  2 years ago"))
        #expect(JournalStats.onThisDayLines([], now: Date()) == ["Nothing on this day in earlier years."])
    }
}
