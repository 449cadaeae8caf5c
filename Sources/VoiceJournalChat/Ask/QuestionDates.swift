import Foundation

/// The period a question names in words — "yesterday", "last week", "in October", "since
/// Monday", "in the last 10 days" — as a range of dates in the user's time zone, with the
/// words it was read from (shown back as the range used) and the question without them
/// (so the dates are not searched for as words).
public struct QuestionDates: Sendable, Equatable {
    /// From `start` (inclusive) to `end` (exclusive).
    public var start: Date
    public var end: Date
    /// The words the range was read from, as the question had them.
    public var phrase: String
    /// The question with `phrase` taken out.
    public var rest: String

    /// The first period `question` names, read against `now` in `calendar`'s time zone; nil
    /// when it names none. Weeks start on Monday (ISO 8601); a month named without a year is
    /// the last one of that name that has begun ("in December" asked in March: last December).
    public static func read(_ question: String, now: Date, calendar given: Calendar = .current) -> QuestionDates? {
        var calendar = given
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        let lowered = question.lowercased()
        for reader in readers {
            guard let match = reader.pattern.firstMatch(in: lowered, range: NSRange(lowered.startIndex..., in: lowered)),
                  let range = Range(match.range, in: lowered) else { continue }
            let groups = (1..<match.numberOfRanges).map { index -> String? in
                Range(match.range(at: index), in: lowered).map { String(lowered[$0]) }
            }
            guard let (start, end) = reader.read(groups, now, calendar) else { continue }
            // The same span of the original question (lowercasing keeps these ASCII words' offsets).
            let original = Range(match.range, in: question) ?? range
            let phrase = String(question[original]).trimmingCharacters(in: .whitespaces)
            var rest = question
            rest.removeSubrange(original)
            rest = rest.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return QuestionDates(start: start, end: end, phrase: phrase, rest: rest)
        }
        return nil
    }

    private struct Reader: Sendable {
        let pattern: NSRegularExpression
        let read: @Sendable ([String?], Date, Calendar) -> (Date, Date)?
        init(_ pattern: String, _ read: @escaping @Sendable ([String?], Date, Calendar) -> (Date, Date)?) {
            // Known-good patterns, written here.
            self.pattern = try! NSRegularExpression(pattern: "\\b" + pattern + "\\b")
            self.read = read
        }
    }

    static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                         "november", "december"]
    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static let readers: [Reader] = [
        Reader("yesterday") { _, now, calendar in
            let today = calendar.startOfDay(for: now)
            return calendar.date(byAdding: .day, value: -1, to: today).map { ($0, today) }
        },
        Reader("today|this morning|this evening|tonight") { _, now, calendar in
            let today = calendar.startOfDay(for: now)
            return calendar.date(byAdding: .day, value: 1, to: today).map { (today, $0) }
        },
        Reader("(?:in |over |during )?the (?:last|past) (\\d{1,3}) days") { groups, now, calendar in
            guard let days = groups[0].flatMap(Int.init), days > 0 else { return nil }
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))!
            return calendar.date(byAdding: .day, value: -days, to: tomorrow).map { ($0, tomorrow) }
        },
        Reader("(last|this|previous) (week|month|year)") { groups, now, calendar in
            let unit: Calendar.Component = switch groups[1] { case "week": .weekOfYear; case "month": .month; default: .year }
            guard let current = calendar.dateInterval(of: unit, for: now) else { return nil }
            guard groups[0] != "this" else { return (current.start, current.end) }
            return calendar.date(byAdding: unit, value: -1, to: current.start).map { ($0, current.start) }
        },
        Reader("since (" + weekdays.joined(separator: "|") + ")") { groups, now, calendar in
            guard let day = groups[0].flatMap(weekdays.firstIndex(of:)) else { return nil }
            let today = calendar.startOfDay(for: now)
            let back = (calendar.component(.weekday, from: today) - (day + 1) + 7) % 7
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: today)!
            return calendar.date(byAdding: .day, value: -back, to: today).map { ($0, tomorrow) }
        },
        Reader("(in|since|during) (" + months.joined(separator: "|") + ")(?: (\\d{4}))?") { groups, now, calendar in
            guard let month = groups[1].flatMap(months.firstIndex(of:)).map({ $0 + 1 }) else { return nil }
            var year = groups[2].flatMap(Int.init) ?? calendar.component(.year, from: now)
            if groups[2] == nil, month > calendar.component(.month, from: now) { year -= 1 }
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)) else { return nil }
            if groups[0] == "since" {
                return calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)).map { (start, $0) }
            }
            return calendar.date(byAdding: .month, value: 1, to: start).map { (start, $0) }
        },
        Reader("in (\\d{4})") { groups, _, calendar in
            guard let year = groups[0].flatMap(Int.init), (1900...2200).contains(year),
                  let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1)) else { return nil }
            return calendar.date(byAdding: .year, value: 1, to: start).map { (start, $0) }
        },
    ]
}
