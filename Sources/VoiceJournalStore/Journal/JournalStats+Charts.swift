import Foundation

/// One month, day by day: what the calendar heatmap draws.
package struct MonthCounts: Codable, Sendable, Equatable {
    package var year: Int
    package var month: Int
    /// The weekday of the 1st: 1 Monday … 7 Sunday (weeks start on Monday, as in ISO 8601).
    package var firstWeekday: Int
    /// Today's day of the month (days after it have not happened yet).
    package var today: Int
    /// Entries on each day, the 1st first.
    package var entriesPerDay: [Int]

    package init(year: Int, month: Int, firstWeekday: Int, today: Int, entriesPerDay: [Int]) {
        self.year = year
        self.month = month
        self.firstWeekday = firstWeekday
        self.today = today
        self.entriesPerDay = entriesPerDay
    }
}

/// One day of the mood trend.
package struct DayMood: Codable, Sendable, Equatable {
    /// The local date, `YYYY-MM-DD`.
    package var day: String
    /// Entries that day with a mood.
    package var entries: Int
    /// Their mean mood score (1–5); nil on a day without one.
    package var averageScore: Double?

    package init(day: String, entries: Int, averageScore: Double?) {
        self.day = day
        self.entries = entries
        self.averageScore = averageScore
    }
}

/// What the stats read of one entry.
struct StatsEntry {
    var id: Int64
    var createdAt: Date
    var kind: EntryKind
    var mood: Mood?
    var journal: String
}

extension JournalStats {
    /// How many days the mood trend covers, today included.
    package static let moodTrendDays = 30

    /// Fills in the per-journal totals, this month's days and the mood trend.
    mutating func addCharts(_ entries: [StatsEntry], now: Date, calendar: Calendar) {
        for entry in entries { entriesByJournal[entry.journal, default: 0] += 1 }
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let startOfMonth = calendar.date(from: DateComponents(year: today.year, month: today.month, day: 1)) ?? now
        let daysInMonth = calendar.range(of: .day, in: .month, for: now)?.count ?? 30
        var perDay = Array(repeating: 0, count: daysInMonth)
        for entry in entries {
            let parts = calendar.dateComponents([.year, .month, .day], from: entry.createdAt)
            if parts.year == today.year, parts.month == today.month, let day = parts.day, perDay.indices.contains(day - 1) {
                perDay[day - 1] += 1
            }
        }
        month = MonthCounts(year: today.year ?? 0, month: today.month ?? 0,
                            firstWeekday: (calendar.component(.weekday, from: startOfMonth) + 5) % 7 + 1,
                            today: today.day ?? 1, entriesPerDay: perDay)

        // Day numbers (see `dayNumber`) make "the last 30 days" immune to DST: a day of 23
        // or 25 hours is still one day.
        let todayNumber = Self.dayNumber(now, calendar) ?? 0
        var scores: [Int: [Int]] = [:]
        for entry in entries {
            guard let mood = entry.mood, let day = Self.dayNumber(entry.createdAt, calendar),
                  todayNumber - day < Self.moodTrendDays, day <= todayNumber else { continue }
            scores[day, default: []].append(mood.score)
        }
        moodTrend = (0..<Self.moodTrendDays).reversed().map { back in
            let day = todayNumber - back
            let dayScores = scores[day] ?? []
            return DayMood(day: Self.dateText(dayNumber: day), entries: dayScores.count,
                           averageScore: dayScores.isEmpty ? nil : Double(dayScores.reduce(0, +)) / Double(dayScores.count))
        }
    }

    /// Whether `date` falls on today's month and day in an earlier year (local time).
    /// On 28 February in a year that is not a leap year, 29 February counts too.
    static func isOnThisDay(_ date: Date, now: Date, calendar: Calendar) -> Bool {
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let then = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = then.year, let thisYear = today.year, year < thisYear, then.month == today.month else { return false }
        if then.day == today.day { return true }
        let todayIsLastOfFebruary = today.month == 2 && today.day == 28 && calendar.range(of: .day, in: .month, for: now)?.count == 28
        return todayIsLastOfFebruary && then.day == 29
    }

    /// A day number as `YYYY-MM-DD` (the inverse of `dayNumber`, Julian day to Gregorian).
    static func dateText(dayNumber: Int) -> String {
        let a = dayNumber + 32044
        let b = (4 * a + 3) / 146_097
        let c = a - 146_097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        let day = e - (153 * m + 2) / 5 + 1
        let month = m + 3 - 12 * (m / 10)
        let year = 100 * b + d - 4800 + m / 10
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
