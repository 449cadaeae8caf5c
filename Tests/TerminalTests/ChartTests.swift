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

    static let names = [5: "happy", 4: "good", 3: "so-so", 2: "low", 1: "bad"]

    /// A week: no mood, then 5, 3, 1, 3.5, none, 2; ticks on the first, the last and a Monday.
    static func week(width: Int, charset: Charset) -> [String] {
        TrendChart.render([nil, 5, 3, 1, 3.5, nil, 2], scale: 1...5, names: names,
                          ticks: [.init(index: 0, label: "Oct 5"), .init(index: 6, label: "Oct 11"), .init(index: 3, label: "Oct 8")],
                          width: width, charset: charset)
    }

    @Test func theChartNamesEachScoreAndPutsTheDatesUnderTheirBars() {
        #expect(Self.week(width: 80, charset: .unicode) == [
            "happy 5 ┤  █",
            "good  4 ┤  █     ▄",
            "so-so 3 ┤  █ █   █",
            "low   2 ┤  █ █   █   █",
            "bad   1 ┤  █ █ █ █   █",
            "        └┬─────┬─────┬",
            "         Oct 5 Oct 8 Oct 11",
        ])
    }

    /// The column each bar (or tick) is drawn in, and the column each label starts at.
    @Test func ticksAndLabelsLineUpWithTheBarsTheyName() throws {
        let lines = Self.week(width: 80, charset: .unicode).map(Array.init)
        let bottom = lines[4], rule = lines[5], labels = String(lines[6])
        let barColumns = bottom.indices.filter { bottom[$0] != " " && $0 > 8 }
        let tickColumns = rule.indices.filter { rule[$0] == "┬" }
        // Days 1, 2, 3, 4 and 6 have a mood; ticks on days 0, 3 and 6, two columns a day.
        #expect(barColumns == [11, 13, 15, 17, 21])
        #expect(tickColumns == [9, 15, 21])
        for (label, column) in [("Oct 5", 9), ("Oct 8", 15), ("Oct 11", 21)] {
            let start = try #require(labels.range(of: label)?.lowerBound)
            #expect(labels.distance(from: labels.startIndex, to: start) == column, "\(label)")
        }
    }

    @Test func aNarrowerTerminalLosesTheGapsThenTheNames() {
        // 9 columns of labels and 13 of days (two a day, no gap after the last); the last label
        // ends at the edge, and the Monday's would touch it.
        let exact = Self.week(width: 22, charset: .unicode)
        #expect(exact[4] == "bad   1 ┤  █ █ █ █   █" && exact.allSatisfy { $0.count <= 22 }, "\(exact)")
        #expect(exact[6] == "         Oct 5  Oct 11")
        // One column a day: the first and the last label fit, the Monday between does not.
        let tight = Self.week(width: 21, charset: .unicode)
        #expect(tight[4] == "bad   1 ┤ ████ █" && tight.allSatisfy { $0.count <= 21 }, "\(tight)")
        #expect(tight[5] == "        └┬──┬──┬")
        #expect(tight[6] == "         Oct 5 Oct 11")
        // Only the numbers.
        let numbers = Self.week(width: 15, charset: .unicode)
        #expect(numbers[0] == "5 ┤ █" && numbers[4] == "1 ┤ ████ █" && numbers[5] == "  └┬──┬──┬", "\(numbers)")
    }

    @Test func withoutUnicodeTheChartIsASCII() {
        let lines = Self.week(width: 80, charset: .ascii)
        #expect(lines[1] == "good  4 |  #     =")
        #expect(lines[5] == "        ++-----+-----+")
        #expect(lines.joined().unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func aDaysAverageBetweenTwoScoresFillsPartOfTheRowAbove() {
        let glyphs = TrendChart.cellGlyphs(.unicode)
        #expect(TrendChart.cell(3.5, score: 4, lowest: 1, highest: 5, glyphs: glyphs) == "▄")
        #expect(TrendChart.cell(3.5, score: 3, lowest: 1, highest: 5, glyphs: glyphs) == "█")
        #expect(TrendChart.cell(3.5, score: 5, lowest: 1, highest: 5, glyphs: glyphs) == " ")
        #expect(TrendChart.cell(1, score: 1, lowest: 1, highest: 5, glyphs: glyphs) == "█", "the lowest score is a bar too")
        #expect(TrendChart.cell(9, score: 5, lowest: 1, highest: 5, glyphs: glyphs) == "█")
        #expect(TrendChart.cell(nil, score: 1, lowest: 1, highest: 5, glyphs: glyphs) == " ")
    }
}
