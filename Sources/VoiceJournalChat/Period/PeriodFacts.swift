import Foundation
import VoiceJournalStore

/// A period's numbers in words, line by line: the same lines the page shows and the model is
/// given as facts, so what a person reads is what the model was told.
public enum PeriodFacts {
    /// "week 2026-W10 (Monday 2 March to Sunday 8 March 2026), all journals".
    public static func title(_ period: JournalPeriod, journal: String?, calendar: Calendar = .current) -> String {
        let first = format("EEEE d MMMM", calendar).string(from: period.start)
        let last = format("EEEE d MMMM yyyy", calendar).string(from: period.lastDay)
        let scope = journal.map { "journal \($0)" } ?? "all journals"
        switch period.kind {
        case .week: return "week \(period.label) (\(first) to \(last)), \(scope)"
        case .month: return "\(format("MMMM yyyy", calendar).string(from: period.start)) (\(period.label)), \(scope)"
        }
    }

    /// The numbers as labelled lines, in the order they are read.
    public static func lines(_ numbers: PeriodNumbers, period: JournalPeriod, calendar: Calendar = .current) -> [(label: String, value: String)] {
        let before = period.kind == .week ? "the week before" : "the month before"
        var lines: [(String, String)] = [
            ("Entries", "\(numbers.entries)"),
            ("Minutes spoken", String(format: "%.1f", numbers.minutesSpoken)),
            ("Words", "\(numbers.words)"),
        ]
        let moods = Mood.allCases.compactMap { mood in numbers.moods[mood.rawValue].flatMap { $0 > 0 ? "\(mood.rawValue) \($0)" : nil } }
        lines.append(("Moods", moods.isEmpty ? "none set" : moods.joined(separator: ", ")))
        let entriesWithMood = "\(numbers.moodEntries) entr\(numbers.moodEntries == 1 ? "y" : "ies") with a mood"
        var average = numbers.averageMoodScore.map { String(format: "%.1f of 5 over ", $0) + entriesWithMood } ?? "no mood set"
        if let now = numbers.averageMoodScore, let then = numbers.previousAverageMoodScore {
            let delta = now - then
            let direction = abs(delta) < 0.05 ? "about the same" : (delta > 0 ? "up " : "down ") + String(format: "%.1f", abs(delta))
            average += "; \(before) " + String(format: "%.1f", then) + " (\(direction))"
        } else {
            average += "; \(before) \(numbers.previousEntries == 0 ? "had no entries" : "had no mood set")"
        }
        lines.append(("Mood score", average))
        if numbers.trend.contains(where: { $0.averageMoodScore != nil }) {
            let by = period.kind == .week ? "Mood by day" : "Mood by week"
            lines.append((by, numbers.trend.map { "\($0.label) " + ($0.averageMoodScore.map { String(format: "%.1f", $0) } ?? "-") }
                .joined(separator: ", ")))
        }
        lines.append(("Top themes", numbers.themes.isEmpty ? "none set" : numbers.themes.map { "\($0.name) \($0.count)" }.joined(separator: ", ")))
        if !numbers.people.isEmpty {
            lines.append(("People", numbers.people.map { person in
                var said: [String] = []
                if person.mentions > 0 { said.append("named in \(person.mentions) entr\(person.mentions == 1 ? "y" : "ies")") }
                if person.answers > 0 { said.append("answered \(person.answers) question\(person.answers == 1 ? "" : "s")") }
                return "\(person.name) (\(said.joined(separator: ", ")))"
            }.joined(separator: ", ")))
        }
        if let last = numbers.lastEntryAt {
            let day = format("EEEE d MMMM", calendar).string(from: last)
            lines.append(("Streak", "\(numbers.streakDays) day\(numbers.streakDays == 1 ? "" : "s") in a row with an entry, to \(day)"))
        }
        return lines
    }

    /// A formatter in `calendar`'s time zone, English whatever the locale (the model reads it too).
    public static func format(_ pattern: String, _ calendar: Calendar) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = pattern
        return formatter
    }
}
