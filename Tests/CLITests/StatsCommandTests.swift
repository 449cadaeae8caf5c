import Foundation
import Testing
import VoiceJournalTestSupport

/// `stats` on a journal kept over several weeks, seen at a fixed "now" (VOICEJOURNAL_NOW)
/// in Berlin, across the end of summer time and the turn of a month.
@Suite(.onTestThreads) struct StatsCommandTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary
    /// 3 November 2026, 12:00 in Berlin.
    static let now = "2026-11-03T11:00:00Z"

    init() throws {
        folder = try TemporaryFolder("vj-stats")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "Europe/Berlin", "VOICEJOURNAL_NOW": Self.now])
    }

    /// 14 days in September, then every day from 22 October to 3 November just after midnight
    /// (13 days, across 25 October's extra hour and 1 November), moods cycling happy, neutral,
    /// anxious, angry; two more entries on 2 November; and entries on 3 November in 2025 and 2024.
    func keepAJournal() throws {
        for day in 1...14 {
            try cli.succeed(["entry", "add", "--text", "September \(day)", "--date", String(format: "2026-09-%02dT20:00", day)])
        }
        let moods = ["happy", "neutral", "anxious", "angry"]  // scores 5, 3, 2, 1: a staircase
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let start = try #require(calendar.date(from: DateComponents(year: 2026, month: 10, day: 22, hour: 0, minute: 30)))
        for offset in 0..<13 {
            let date = try #require(calendar.date(byAdding: .day, value: offset, to: start))
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = String(format: "%04d-%02d-%02dT00:30", parts.year!, parts.month!, parts.day!)
            try cli.succeed(["entry", "add", "--text", "walked the dog on \(day)", "--mood", moods[offset % 4], "--date", day])
        }
        try cli.succeed(["entry", "add", "--text", "a second note", "--date", "2026-11-02T18:00"])
        try cli.succeed(["entry", "add", "--kind", "gratitude", "--text", "thankful for soup", "--date", "2026-11-02T19:00"])
        try cli.succeed(["entry", "add", "--text", "first snow last year", "--mood", "excited", "--date", "2025-11-03T09:00"])
        try cli.succeed(["entry", "add", "--text", "moved into the flat", "--date", "2024-11-03T15:00"])
        try cli.succeed(["entry", "add", "--text", "not quite the day", "--date", "2025-11-04T09:00"])
    }

    @Test func streaksHeatmapAndMoodTrendForAKnownJournal() throws {
        try keepAJournal()
        let stats = try #require(try cli.succeed(["stats", "--json"]).json() as? [String: Any])
        #expect(stats["totalEntries"] as? Int == 32)
        #expect(stats["currentStreak"] as? Int == 13, "across the DST change and the month boundary")
        #expect(stats["longestStreak"] as? Int == 14)
        let month = try #require(stats["month"] as? [String: Any])
        #expect(month["year"] as? Int == 2026 && month["month"] as? Int == 11 && month["firstWeekday"] as? Int == 7)
        #expect((month["entriesPerDay"] as? [Int])?.prefix(4) == [1, 3, 1, 0])
        let trend = try #require(stats["moodTrend"] as? [[String: Any]])
        #expect(trend.count == 30 && trend.first?["day"] as? String == "2026-10-05")
        #expect((stats["entriesByJournal"] as? [String: Int]) == ["Personal": 32])
        #expect((stats["entriesByKind"] as? [String: Int])?["gratitude"] == 1)

        let unicode = try cli.succeed(["stats"], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "COLUMNS": "80"]).stdout
        #expect(unicode.contains("""
            November 2026
            Mo Tu We Th Fr Sa Su
                              ▒▒  1
            ██ ▒▒                 2–3
            less ·░▒▓█ more  (busiest day: 3 entries)
            """), "\(unicode)")
        #expect(unicode.contains("""
            Mood, last 30 days (2026-10-05 to 2026-11-03), each day's average:
            happy             5 ┤                                  █       █       █       █
            grateful, excited 4 ┤                                  █       █       █       █
            neutral           3 ┤                                  █ █     █ █     █ █     █
            anxious, stressed 2 ┤                                  █ █ █   █ █ █   █ █ █   █
            sad, angry        1 ┤                                  █ █ █ █ █ █ █ █ █ █ █ █ █
                                └┬─────────────┬─────────────┬─────────────┬─────────────┬─┬
                                 Oct 5         Oct 12        Oct 19        Oct 26      Nov 3
            """), "\(unicode)")
        // $COLUMNS narrows it: one column a day.
        let narrow = try cli.succeed(["stats"], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "COLUMNS": "60"]).stdout
        #expect(narrow.contains("sad, angry        1 ┤" + String(repeating: " ", count: 17) + String(repeating: "█", count: 13) + "\n"),
                "\(narrow)")
        #expect(unicode.contains("Current streak: 13 days") && unicode.contains("Longest streak: 14 days"))

        let ascii = try cli.succeed(["stats"], environment: ["LANG": "C", "LC_ALL": "", "LC_CTYPE": "", "COLUMNS": "80"]).stdout
        #expect(ascii.contains("                  ++  1\n## ++                 2-3\nless .:+*# more"), "\(ascii)")
        #expect(ascii.contains("neutral           3 |                                  # #     # #     # #     #\n"), "\(ascii)")
        let allASCII = ascii.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(allASCII, "plain ASCII without a UTF-8 locale")
    }

    @Test func onThisDayShowsTheSameDateInEarlierYears() throws {
        try keepAJournal()
        let shown = try cli.succeed(["stats", "--on-this-day"]).stdout
        #expect(shown.hasPrefix("On this day:\n"))
        let lines = shown.split(separator: "\n").dropFirst()
        #expect(lines.count == 2, "\(shown)")
        #expect(lines.first?.contains("2025-11-03 09:00  1 year ago") == true)
        #expect(lines.first?.contains("first snow last year") == true)
        #expect(lines.last?.contains("2024-11-03 15:00  2 years ago") == true)
        let json = try #require(try cli.succeed(["stats", "--on-this-day", "--json"]).json() as? [[String: Any]])
        #expect(json.compactMap { $0["content"] as? String } == ["first snow last year", "moved into the flat"])
        let later = try cli.succeed(["stats", "--on-this-day"], environment: ["VOICEJOURNAL_NOW": "2026-11-05T11:00:00Z"])
        #expect(later.stdout == "Nothing on this day in earlier years.\n")
    }
}
