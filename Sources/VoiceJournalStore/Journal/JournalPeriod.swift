import Foundation

/// A stretch of the calendar a reflection looks back on: an ISO week (Monday 00:00 to the
/// next Monday 00:00) or a calendar month, in a calendar's time zone (the user's). `start` is
/// in the period, `end` is not (it is the next period's start), so a day that is 23 or 25
/// hours long at a clock change is still one day of it.
public struct JournalPeriod: Sendable, Equatable, Codable {
    /// A week or a month.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case week, month
    }

    /// A part of the period the mood trend is told by: a day of a week, a week of a month.
    public struct Part: Sendable, Equatable, Codable {
        /// "Mon", …; or "2-8" (the month's days it covers, a week cut at the month's edges).
        public var label: String
        public var start: Date
        public var end: Date
    }

    public var kind: Kind
    public var start: Date
    public var end: Date
    /// `2026-W10` (the ISO week's year and number) or `2026-03`.
    public var label: String

    public init(kind: Kind, start: Date, end: Date, label: String) {
        self.kind = kind
        self.start = start
        self.end = end
        self.label = label
    }

    /// The ISO week holding `date`, in `calendar`'s time zone.
    public static func week(containing date: Date, calendar: Calendar = .current) -> JournalPeriod {
        let iso = Self.iso(calendar)
        let start = iso.dateInterval(of: .weekOfYear, for: date)?.start ?? iso.startOfDay(for: date)
        let end = iso.date(byAdding: .day, value: 7, to: start) ?? start.addingTimeInterval(7 * 86_400)
        let parts = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: start)
        let label = String(format: "%04ld-W%02ld", parts.yearForWeekOfYear ?? 0, parts.weekOfYear ?? 0)
        return JournalPeriod(kind: .week, start: start, end: end, label: label)
    }

    /// The month `month` (1–12) of `year`, in `calendar`'s time zone; nil for a month that is not one.
    public static func month(year: Int, month: Int, calendar: Calendar = .current) -> JournalPeriod? {
        guard (1...12).contains(month), (1...9999).contains(year) else { return nil }
        let gregorian = Self.gregorian(calendar)
        guard let start = gregorian.date(from: DateComponents(year: year, month: month, day: 1)),
              let end = gregorian.date(byAdding: .month, value: 1, to: start) else { return nil }
        return JournalPeriod(kind: .month, start: start, end: end, label: String(format: "%04ld-%02ld", year, month))
    }

    /// The month holding `date`, in `calendar`'s time zone.
    public static func month(containing date: Date, calendar: Calendar = .current) -> JournalPeriod {
        let parts = Self.gregorian(calendar).dateComponents([.year, .month], from: date)
        return month(year: parts.year ?? 1970, month: parts.month ?? 1, calendar: calendar)
            ?? JournalPeriod(kind: .month, start: date, end: date, label: "")
    }

    /// The period of the same kind just before this one: the week before, the month before.
    public func previous(calendar: Calendar = .current) -> JournalPeriod {
        let day = start.addingTimeInterval(-12 * 3600)
        return kind == .week ? Self.week(containing: day, calendar: calendar) : Self.month(containing: day, calendar: calendar)
    }

    /// The parts the mood trend is told by: a week's seven days; a month's weeks, each
    /// Monday to Sunday and cut at the month's first and last day.
    public func parts(calendar: Calendar = .current) -> [Part] {
        let iso = Self.iso(calendar)
        var parts: [Part] = []
        var cursor = start
        while cursor < end, parts.count < 40 {
            let next: Date
            let label: String
            if kind == .week {
                next = iso.date(byAdding: .day, value: 1, to: cursor) ?? end
                label = Self.weekdays[(iso.component(.weekday, from: cursor) + 5) % 7]
            } else {
                let weekEnd = (iso.dateInterval(of: .weekOfYear, for: cursor)?.end) ?? end
                next = min(weekEnd, end)
                let first = iso.component(.day, from: cursor)
                let last = iso.component(.day, from: next.addingTimeInterval(-3600))
                label = first == last ? "\(first)" : "\(first)-\(last)"
            }
            parts.append(Part(label: label, start: cursor, end: next))
            cursor = next
        }
        return parts
    }

    /// The last day of the period, as a date inside it (noon of that day).
    public var lastDay: Date { end.addingTimeInterval(-12 * 3600) }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// ISO 8601's week rules (weeks from Monday, the first week holding a Thursday) in the
    /// time zone of `calendar`.
    static func iso(_ calendar: Calendar) -> Calendar {
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = calendar.timeZone
        iso.firstWeekday = 2
        iso.minimumDaysInFirstWeek = 4
        return iso
    }

    static func gregorian(_ calendar: Calendar) -> Calendar {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        return gregorian
    }
}
