import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// `stats` in words: the counts, the month's calendar, the mood trend and "on this day".
/// Journal names and entry text come from rows and are escaped.
extension JournalStats {
    /// The whole report as lines; the calendar and the mood chart drawn in `charset`, the
    /// chart fitted to `width` columns.
    package func lines(now: Date, charset: Charset, width: Int = 80) -> [String] {
        var lines = ["Entries:        \(totalEntries)  (" + EntryKind.allCases.map {
            "\($0.rawValue) \(entriesByKind[$0.rawValue] ?? 0)"
        }.joined(separator: ", ") + ")"]
        if !entriesByJournal.isEmpty {
            lines.append("Journals:       " + entriesByJournal.sorted { $0.key.lowercased() < $1.key.lowercased() }
                .map { "\(TerminalText.escaped($0.key)) \($0.value)" }.joined(separator: ", "))
        }
        lines += ["This week:      \(entriesThisWeek)", "Current streak: \(Self.days(currentStreak))",
                  "Longest streak: \(Self.days(longestStreak))",
                  String(format: "Recorded:       %.1f min (%.1f min transcribed)", minutesRecorded, minutesTranscribed)]
        if audioSentSeconds > 0 || audioLeftOutSeconds > 0 || resends > 0 {
            lines.append("Audio sent:     \(Self.amount(audioSentSeconds)) (\(Self.amount(audioLeftOutSeconds)) of pauses and silence "
                         + "left out; \(resends) re-send\(resends == 1 ? "" : "s"))")
        }
        if reflections > 0 {
            let unpriced = reflectionsUnpriced == 0 ? "" : ", \(reflectionsUnpriced) at unknown prices"
            lines.append("Reflections:    \(reflections) (\(reflectionInputTokens) tokens in, \(reflectionOutputTokens) out, "
                         + String(format: "$%.4f", reflectionCost) + unpriced + ")")
        }
        if let averageMoodScore {
            lines.append(String(format: "Mood average:   %.1f of 5", averageMoodScore))
            let present = Mood.allCases.filter { (moods[$0.rawValue] ?? 0) > 0 }
            lines += Table(headers: ["MOOD", "ENTRIES"], rows: present.map { [$0.rawValue, String(moods[$0.rawValue] ?? 0)] })
                .render().split(separator: "\n").map { "  " + String($0) }
        }
        lines.append("")
        lines += CalendarHeatmap.render(title: Self.monthTitle(month), firstWeekday: month.firstWeekday, today: month.today,
                                        entriesPerDay: month.entriesPerDay, charset: charset)
        if !moodTrend.isEmpty { lines += [""] + moodTrendLines(width: width, charset: charset) }
        if !onThisDay.isEmpty { lines += [""] + Self.onThisDayLines(onThisDay, now: now) }
        return lines
    }

    /// The "on this day" section: each entry with how long ago, its journal, mood and first words.
    package static func onThisDayLines(_ entries: [EntryDetails], now: Date) -> [String] {
        guard !entries.isEmpty else { return ["Nothing on this day in earlier years."] }
        let thisYear = Calendar.current.component(.year, from: now)
        return ["On this day:"] + entries.map { entry in
            let years = thisYear - Calendar.current.component(.year, from: entry.createdAt)
            let words = entry.text.split(whereSeparator: \.isWhitespace).prefix(12).joined(separator: " ")
            let tags = [entry.journal, entry.mood?.rawValue].compactMap { $0 }.map(TerminalText.escaped).joined(separator: ", ")
            return "  \(LocalDate.short(entry.createdAt))  \(years) year\(years == 1 ? "" : "s") ago  #\(entry.id)  (\(tags))  "
                + TerminalText.escaped(words.isEmpty ? "(not transcribed yet)" : words)
        }
    }

    /// "November 2026".
    static func monthTitle(_ month: MonthCounts) -> String {
        let names = DateFormatter()
        names.locale = Locale(identifier: "en_US_POSIX")
        let index = month.month - 1
        let name = names.standaloneMonthSymbols.indices.contains(index) ? names.standaloneMonthSymbols[index] : "Month \(month.month)"
        return "\(name) \(month.year)"
    }

    /// Seconds under two minutes as seconds (`42 s`), else as minutes (`12.5 min`).
    static func amount(_ seconds: Double) -> String {
        seconds < 120 ? String(format: "%.1f s", seconds) : String(format: "%.1f min", seconds / 60)
    }

    private static func days(_ count: Int) -> String { "\(count) day\(count == 1 ? "" : "s")" }
}
