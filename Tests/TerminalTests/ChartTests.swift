import Testing
@testable import VoiceJournalTerminal

@Suite struct ChartTests {
    @Test(arguments: [
        (["LANG": "en_US.UTF-8"], Charset.unicode),
        (["LANG": "C.utf8"], .unicode),
        (["LC_ALL": "de_DE.UTF-8", "LANG": "C"], .unicode),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], .ascii),        // LC_ALL wins
        (["LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"], .ascii),  // then LC_CTYPE
        (["LC_ALL": "", "LC_CTYPE": "en_GB.UTF-8"], .unicode),   // an empty one is not set
        (["LANG": "de_DE.ISO-8859-1"], .ascii),
        ([:], .ascii),                                          // no locale: the C locale
    ])
    func theLocaleDecidesBetweenBlocksAndASCII(environment: [String: String], expected: Charset) {
        #expect(Charset.detect(environment: environment) == expected)
    }

    /// November 2026 starts on a Sunday; on the 3rd, the 2nd was the busiest day (3 entries).
    @Test func theHeatmapDrawsTheMonthUpToTodayShadedByTheBusiestDay() {
        var days = Array(repeating: 0, count: 30)
        days[0] = 1
        days[1] = 3
        days[2] = 1
        days[20] = 5  // in the future: not drawn
        let unicode = CalendarHeatmap.render(title: "November 2026", firstWeekday: 7, today: 3, entriesPerDay: days, charset: .unicode)
        #expect(unicode == [
            "November 2026",
            "Mo Tu We Th Fr Sa Su",
            "                  ░░  1",
            "▓▓ ░░                 2–3",
            "less ·░▒▓█ more  (busiest day: 5 entries)",
        ])
        days[20] = 0
        let ascii = CalendarHeatmap.render(title: "November 2026", firstWeekday: 7, today: 10, entriesPerDay: days, charset: .ascii)
        #expect(ascii == [
            "November 2026",
            "Mo Tu We Th Fr Sa Su",
            "                  ++  1",
            "## ++ .. .. .. .. ..  2-8",
            ".. ..                 9-10",
            "less .:+*# more  (busiest day: 3 entries)",
        ])
    }

    @Test func aMonthWithoutEntriesHasNoBusiestDay() {
        let lines = CalendarHeatmap.render(title: "March 2027", firstWeekday: 1, today: 8, entriesPerDay: Array(repeating: 0, count: 31),
                                           charset: .ascii)
        #expect(lines[2...] == [".. .. .. .. .. .. ..  1-7", "..                    8", "less .:+*# more"])
    }

    @Test func theSparklineScalesScoresOneToFiveAndLeavesDaysWithoutAMoodBlank() {
        let scores: [Double?] = [nil, nil, 5, 3, 2, 1, nil, 4.5, 1.2, 9]
        #expect(Sparkline.render(scores, range: 1...5, charset: .unicode) == "  █▅▃▁ ▇▁█")
        #expect(Sparkline.render(scores, range: 1...5, charset: .ascii) == "  #-._ #_#")
        #expect(Sparkline.render([], range: 1...5, charset: .ascii) == "")
    }
}
