import Foundation

/// A point in time as people write it: `2026-11-22`, `2026-11-22T09:30`, `2026-11-22 09:30`,
/// full ISO 8601, `today` or `yesterday` — local time unless a zone is given — or a time back
/// from now: `7d` days, `2w` weeks, `3m` months, `1y` years. What `--since`, `--until` and
/// `--date` take.
package struct PointInTime: Sendable, Equatable {
    package let date: Date
    /// True when only a day was given, so `--until 2026-11-22` can include that whole day.
    package let isWholeDay: Bool

    /// Reads `text` against `now` in `calendar`'s time zone; nil when it names no time.
    package init?(_ text: String, now: Date, calendar: Calendar = .current) {
        let today = calendar.startOfDay(for: now)
        if let ago = Self.timeAgo(text, from: now, calendar: calendar) {
            (date, isWholeDay) = (ago, false)
            return
        }
        switch text.lowercased() {
        case "today":
            (date, isWholeDay) = (today, true)
            return
        case "yesterday":
            guard let day = calendar.date(byAdding: .day, value: -1, to: today) else { return nil }
            (date, isWholeDay) = (day, true)
            return
        default:
            break
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        for (format, wholeDay) in [("yyyy-MM-dd", true), ("yyyy-MM-dd'T'HH:mm", false), ("yyyy-MM-dd HH:mm", false),
                                   ("yyyy-MM-dd'T'HH:mm:ss", false), ("yyyy-MM-dd HH:mm:ss", false)] {
            formatter.dateFormat = format
            if let parsed = formatter.date(from: text) {
                (date, isWholeDay) = (parsed, wholeDay)
                return
            }
        }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let parsed = iso.date(from: text) ?? ISO8601DateFormatter().date(from: text) {
            (date, isWholeDay) = (parsed, false)
            return
        }
        return nil
    }

    /// `7d`, `2w`, `3m`, `1y` back from `now`, by the calendar (a month back from 31 March is
    /// the last day of February); nil for anything else.
    static func timeAgo(_ text: String, from now: Date, calendar: Calendar) -> Date? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0 else { return nil }
        let component: Calendar.Component
        switch unit {
        case "d": component = .day
        case "w": component = .weekOfYear
        case "m": component = .month
        case "y": component = .year
        default: return nil
        }
        return calendar.date(byAdding: component, value: -count, to: now)
    }

    /// The end of the period it names: the next midnight for a whole day.
    package var endOfPeriod: Date {
        isWholeDay ? (Calendar.current.date(byAdding: .day, value: 1, to: date) ?? date) : date
    }
}
