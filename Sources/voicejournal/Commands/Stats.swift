import ArgumentParser
import Foundation
import Store
import Terminal

/// `voicejournal stats`.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Entry counts, streaks, this month's calendar, the mood trend and \"on this day\".",
        discussion: """
            Days are counted in your local time zone; a streak still counts today if yesterday had \
            an entry. The calendar and the mood sparkline use Unicode blocks when the locale is \
            UTF-8 (LC_ALL, LC_CTYPE, LANG), plain ASCII otherwise.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this journal.") var journal: String?
    @Flag(help: "Only the entries made on this day in earlier years.") var onThisDay = false

    func run() async throws {
        let now = Now.date()
        let stats = try global.openStoreForReading().stats(journal: journal, now: now)
        if output.json { return try onThisDay ? printJSON(stats.onThisDay) : printJSON(stats) }
        let charset = Charset.detect()
        guard !onThisDay else { return print(Self.onThisDay(stats.onThisDay, now: now).joined(separator: "\n")) }
        print("Entries:        \(stats.totalEntries)  (" + EntryKind.allCases.map {
            "\($0.rawValue) \(stats.entriesByKind[$0.rawValue] ?? 0)"
        }.joined(separator: ", ") + ")")
        if !stats.entriesByJournal.isEmpty {
            print("Journals:       " + stats.entriesByJournal.sorted { $0.key.lowercased() < $1.key.lowercased() }
                .map { "\(TerminalText.escaped($0.key)) \($0.value)" }.joined(separator: ", "))
        }
        print("This week:      \(stats.entriesThisWeek)")
        print("Current streak: \(days(stats.currentStreak))")
        print("Longest streak: \(days(stats.longestStreak))")
        print(String(format: "Recorded:       %.1f min (%.1f min transcribed)", stats.minutesRecorded, stats.minutesTranscribed))
        if let average = stats.averageMoodScore {
            print(String(format: "Mood average:   %.1f of 5", average))
            let moods = Mood.allCases.filter { (stats.moods[$0.rawValue] ?? 0) > 0 }
            print(Table(headers: ["MOOD", "ENTRIES"], rows: moods.map { [$0.rawValue, String(stats.moods[$0.rawValue] ?? 0)] })
                .render().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
        print("")
        let month = stats.month
        print(CalendarHeatmap.render(title: Self.monthTitle(month), firstWeekday: month.firstWeekday, today: month.today,
                                     entriesPerDay: month.entriesPerDay, charset: charset).joined(separator: "\n"))
        if let first = stats.moodTrend.first, let last = stats.moodTrend.last {
            print("\nMood, last \(stats.moodTrend.count) days (\(first.day) to \(last.day), low to high):")
            print(Sparkline.render(stats.moodTrend.map(\.averageScore), range: 1...5, charset: charset))
        }
        if !stats.onThisDay.isEmpty {
            print("")
            print(Self.onThisDay(stats.onThisDay, now: now).joined(separator: "\n"))
        }
    }

    private func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }

    /// "November 2026".
    static func monthTitle(_ month: MonthCounts) -> String {
        let names = DateFormatter()
        names.locale = Locale(identifier: "en_US_POSIX")
        let index = month.month - 1
        let name = names.standaloneMonthSymbols.indices.contains(index) ? names.standaloneMonthSymbols[index] : "Month \(month.month)"
        return "\(name) \(month.year)"
    }

    /// The "on this day" section: each entry with how long ago, its journal, mood and first words.
    static func onThisDay(_ entries: [EntryDetails], now: Date) -> [String] {
        guard !entries.isEmpty else { return ["Nothing on this day in earlier years."] }
        let thisYear = Calendar.current.component(.year, from: now)
        return ["On this day:"] + entries.map { entry in
            let years = thisYear - Calendar.current.component(.year, from: entry.createdAt)
            let words = entry.text.split(whereSeparator: \.isWhitespace).prefix(12).joined(separator: " ")
            let tags = [entry.journal, entry.mood?.rawValue].compactMap { $0 }.map(TerminalText.escaped).joined(separator: ", ")
            return "  \(shortDate(entry.createdAt))  \(years) year\(years == 1 ? "" : "s") ago  #\(entry.id)  (\(tags))  "
                + TerminalText.escaped(words.isEmpty ? "(not transcribed yet)" : words)
        }
    }
}
