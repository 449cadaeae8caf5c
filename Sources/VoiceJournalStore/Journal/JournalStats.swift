import Foundation
import GRDB

/// Counts, streaks and moods over a set of entries: what `stats` shows.
package struct JournalStats: Codable, Sendable, Equatable {
    package var totalEntries: Int
    /// Entries per kind (`voice`, `text`, `gratitude`), every kind present, zero or not.
    package var entriesByKind: [String: Int]
    /// Consecutive days with an entry, ending today — or yesterday, since today's entry may
    /// still come. 0 when neither day has one.
    package var currentStreak: Int
    package var longestStreak: Int
    /// Entries since Monday 00:00 this week, local time.
    package var entriesThisWeek: Int
    /// Entries per mood, every mood present.
    package var moods: [String: Int]
    /// Mean mood score (1–5) over entries that have a mood; nil when none do.
    package var averageMoodScore: Double?
    package var firstEntryAt: Date?
    package var lastEntryAt: Date?
    /// Entries per journal name.
    package var entriesByJournal: [String: Int] = [:]
    /// This month, day by day: the calendar heatmap.
    package var month = MonthCounts(year: 0, month: 0, firstWeekday: 1, today: 0, entriesPerDay: [])
    /// The last 30 days, oldest first, ending today: the mood trend.
    package var moodTrend: [DayMood] = []
    /// Length of the recordings, in minutes, and of those with a transcript.
    package var minutesRecorded: Double = 0
    package var minutesTranscribed: Double = 0
    /// Seconds of audio uploaded (chunks, live pieces and re-sends included), summed over
    /// the transcripts that counted it (not those stored before it was counted).
    package var audioSentSeconds: Double = 0
    /// Seconds of those transcripts' recordings that were not sent (pauses cut out,
    /// silence): each recording's length less what was sent for it, never below 0 (a
    /// re-send can make what was sent longer than the recording).
    package var audioLeftOutSeconds: Double = 0
    /// Extra uploads made to check coverage, over every transcript.
    package var resends: Int = 0
    /// Reflections kept (valid and failed, every request of each), their tokens and what
    /// they cost in dollars; `reflectionsUnpriced` of them at an endpoint of unknown prices.
    package var reflections: Int = 0
    package var reflectionInputTokens: Int = 0
    package var reflectionOutputTokens: Int = 0
    package var reflectionCost: Double = 0
    package var reflectionsUnpriced: Int = 0
    /// Entries made on today's month and day in earlier years, newest first.
    package var onThisDay: [EntryDetails] = []

    /// Computes the stats from each entry's creation time, kind and mood. Days are
    /// calendar days in `calendar`'s time zone (the user's, by default).
    package init(entries: [(createdAt: Date, kind: EntryKind, mood: Mood?)], now: Date, calendar: Calendar = .current) {
        totalEntries = entries.count
        entriesByKind = Dictionary(uniqueKeysWithValues: EntryKind.allCases.map { ($0.rawValue, 0) })
        moods = Dictionary(uniqueKeysWithValues: Mood.allCases.map { ($0.rawValue, 0) })
        var scores: [Int] = []
        for entry in entries {
            entriesByKind[entry.kind.rawValue, default: 0] += 1
            if let mood = entry.mood {
                moods[mood.rawValue, default: 0] += 1
                scores.append(mood.score)
            }
        }
        averageMoodScore = scores.isEmpty ? nil : Double(scores.reduce(0, +)) / Double(scores.count)
        firstEntryAt = entries.map(\.createdAt).min()
        lastEntryAt = entries.map(\.createdAt).max()

        let days = Set(entries.compactMap { Self.dayNumber($0.createdAt, calendar) })
        let today = Self.dayNumber(now, calendar) ?? 0
        (currentStreak, longestStreak) = Self.streaks(days: days, today: today)

        // Weeks start on Monday, as in ISO 8601 (weekday 1 is Sunday in Foundation).
        let daysSinceMonday = (calendar.component(.weekday, from: now) + 5) % 7
        let weekStart = calendar.date(byAdding: .day, value: -daysSinceMonday, to: calendar.startOfDay(for: now)) ?? now
        entriesThisWeek = entries.filter { $0.createdAt >= weekStart && $0.createdAt <= now }.count
    }

    /// Current and longest run of consecutive day numbers; the current run may end today or
    /// yesterday.
    static func streaks(days: Set<Int>, today: Int) -> (current: Int, longest: Int) {
        var longest = 0
        for day in days where !days.contains(day - 1) {
            var length = 1
            while days.contains(day + length) { length += 1 }
            longest = max(longest, length)
        }
        var end = today
        if !days.contains(end) { end -= 1 }
        var current = 0
        while days.contains(end - current) { current += 1 }
        return (current, longest)
    }

    /// A calendar day as one integer (its Julian day number), so consecutive days differ by
    /// one. Computed from the local year, month and day: `Calendar.ordinality(of:in:for:)`
    /// ignores the calendar's time zone on Linux.
    static func dayNumber(_ date: Date, _ calendar: Calendar) -> Int? {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    }
}

extension JournalStore {
    /// Stats over every entry (or one journal's), as of `now`: counts, streaks, this
    /// month's days, the mood trend, minutes recorded and "on this day".
    package func stats(journal: String? = nil, now: Date = Date(), calendar: Calendar = .current) throws -> JournalStats {
        try pool.read { db in
            // Only the columns the stats count: the listing query's transcript and job joins
            // would be read for every entry and thrown away.
            var sql = "SELECT e.id, e.createdAt, e.kind, e.mood, j.name AS journal FROM entry e JOIN journal j ON j.id = e.journalId"
            var arguments: StatementArguments = []
            if let journal {
                sql += " WHERE e.journalId = ?"
                arguments = [try Self.journal(db, named: journal).id]
            }
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let entries = try rows.map { row in
                StatsEntry(id: try row.decode(Int64.self, forColumn: "id"), createdAt: try row.decode(Date.self, forColumn: "createdAt"),
                           kind: try row.decode(EntryKind.self, forColumn: "kind"), mood: try row.decode(Mood?.self, forColumn: "mood"),
                           journal: try row.decode(String?.self, forColumn: "journal") ?? "")
            }
            var stats = JournalStats(entries: entries.map { ($0.createdAt, $0.kind, $0.mood) }, now: now, calendar: calendar)
            stats.addCharts(entries, now: now, calendar: calendar)
            let earlier = entries.filter { JournalStats.isOnThisDay($0.createdAt, now: now, calendar: calendar) }.map(\.id)
            stats.onThisDay = earlier.isEmpty ? [] : try Self.entryDetails(
                db, where: ["e.id IN (\(earlier.map { _ in "?" }.joined(separator: ",")))"], StatementArguments(earlier))
            (stats.minutesRecorded, stats.minutesTranscribed) = try Self.minutes(db, journalName: journal)
            (stats.audioSentSeconds, stats.audioLeftOutSeconds, stats.resends) = try Self.audioSent(db, journalName: journal)
            try stats.addReflections(db, journalName: journal)
            return stats
        }
    }

    /// Audio sent and left out over the transcripts that counted what they sent, and the
    /// re-sends over all (of one journal's entries and answers, or all).
    private static func audioSent(_ db: Database, journalName: String?) throws -> (sent: Double, leftOut: Double, resends: Int) {
        var sql = """
            SELECT coalesce(sum(t.audioSentSeconds), 0) AS sent,
                   coalesce(sum(CASE WHEN t.audioSentSeconds IS NULL THEN 0
                                     ELSE max(r.durationSeconds - t.audioSentSeconds, 0) END), 0) AS leftOut,
                   coalesce(sum(t.resends), 0) AS resends
            FROM transcript t JOIN recording r ON r.id = t.recordingId
            WHERE r.state = 'complete'
            """
        var arguments: StatementArguments = []
        if let journalName {
            sql += " AND " + recordingOfJournal
            let id = try journal(db, named: journalName).id
            arguments = [id, id]
        }
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return (0, 0, 0) }
        return (try row.decode(Double.self, forColumn: "sent"), try row.decode(Double.self, forColumn: "leftOut"),
                try row.decode(Int.self, forColumn: "resends"))
    }

    /// A recording `r` of one journal's entries or answers (two `?`: the journal's id).
    private static let recordingOfJournal = """
        (r.entryId IN (SELECT id FROM entry WHERE journalId = ?)
         OR r.assignmentId IN (SELECT a.id FROM assignment a JOIN question q ON q.id = a.questionId
                               WHERE q.journalId = ?))
        """

    /// Minutes of complete recordings (of one journal's entries and answers, or all), and of
    /// those transcribed.
    private static func minutes(_ db: Database, journalName: String?) throws -> (recorded: Double, transcribed: Double) {
        var sql = """
            SELECT coalesce(sum(r.durationSeconds), 0) AS recorded,
                   coalesce(sum(CASE WHEN t.id IS NULL THEN 0 ELSE r.durationSeconds END), 0) AS transcribed
            FROM recording r LEFT JOIN transcript t ON t.recordingId = r.id
            WHERE r.state = 'complete'
            """
        var arguments: StatementArguments = []
        if let journalName {
            sql += " AND " + recordingOfJournal
            let id = try journal(db, named: journalName).id
            arguments = [id, id]
        }
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return (0, 0) }
        let recorded = try row.decode(Double.self, forColumn: "recorded"), transcribed = try row.decode(Double.self, forColumn: "transcribed")
        return (recorded / 60, transcribed / 60)
    }
}
