import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// The mood trend of `stats` as a chart a reader can place: the scores named by their moods
/// down the side, the days under it.
extension JournalStats {
    /// The heading and the chart of the last days' moods, `width` columns at most (the names
    /// go first when it is narrow, then the gaps between days); nothing without a trend.
    package func moodTrendLines(width: Int, charset: Charset) -> [String] {
        guard let first = moodTrend.first, let last = moodTrend.last else { return [] }
        let heading = "Mood, last \(moodTrend.count) days (\(first.day) to \(last.day)), each day's average:"
        return [heading] + TrendChart.render(moodTrend.map(\.averageScore), scale: 1...5, names: Self.moodNames,
                                             ticks: Self.dayTicks(moodTrend.map(\.day)), width: width, charset: charset)
    }

    /// Each score's moods, in the order `Mood` lists them: 1 "sad, angry" … 5 "happy".
    static var moodNames: [Int: String] {
        Dictionary(grouping: Mood.allCases, by: \.score).mapValues { $0.map(\.rawValue).joined(separator: ", ") }
    }

    /// Ticks for `days` (`YYYY-MM-DD`): the first and the last labelled first, then every Monday
    /// (the week `stats` counts from), as "Oct 5".
    static func dayTicks(_ days: [String]) -> [TrendChart.Tick] {
        let dates = days.map(Self.calendarDate)
        func tick(_ index: Int) -> TrendChart.Tick { TrendChart.Tick(index: index, label: dates[index].map(Self.shortDay) ?? "") }
        guard !days.isEmpty else { return [] }
        var ticks = [tick(0)] + (days.count > 1 ? [tick(days.count - 1)] : [])
        for index in days.indices.dropFirst().dropLast() where dates[index].map({ utc.component(.weekday, from: $0) == 2 }) == true {
            ticks.append(tick(index))
        }
        return ticks
    }

    /// Days as calendar dates: `YYYY-MM-DD` read at noon UTC, so no zone moves one across midnight.
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    private static func calendarDate(_ day: String) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
    }

    /// "Oct 5": the month's English abbreviation, as `monthTitle` names months in English.
    private static func shortDay(_ date: Date) -> String {
        let parts = utc.dateComponents([.month, .day], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let index = (parts.month ?? 1) - 1
        return "\(months.indices.contains(index) ? months[index] : String(index + 1)) \(parts.day ?? 1)"
    }
}
