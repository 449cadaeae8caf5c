import ArgumentParser
import Foundation
import Store
import Terminal

/// `voicejournal stats`.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Entry counts, streaks of consecutive days, and moods.",
        discussion: "Days are counted in your local time zone; a streak still counts today if yesterday had an entry.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this journal.") var journal: String?

    func run() async throws {
        let stats = try global.openStoreForReading().stats(journal: journal)
        if output.json { return try printJSON(stats) }
        print("Entries:        \(stats.totalEntries)  (" + EntryKind.allCases.map {
            "\($0.rawValue) \(stats.entriesByKind[$0.rawValue] ?? 0)"
        }.joined(separator: ", ") + ")")
        print("This week:      \(stats.entriesThisWeek)")
        print("Current streak: \(stats.currentStreak) day\(stats.currentStreak == 1 ? "" : "s")")
        print("Longest streak: \(stats.longestStreak) day\(stats.longestStreak == 1 ? "" : "s")")
        if let average = stats.averageMoodScore {
            print(String(format: "Mood average:   %.1f of 5", average))
            let moods = Mood.allCases.filter { (stats.moods[$0.rawValue] ?? 0) > 0 }
            print(Table(headers: ["MOOD", "ENTRIES"], rows: moods.map { [$0.rawValue, String(stats.moods[$0.rawValue] ?? 0)] })
                .render().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
    }
}
