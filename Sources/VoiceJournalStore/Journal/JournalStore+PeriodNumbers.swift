import Foundation
import GRDB

extension JournalStore {
    /// The numbers of `period`, over one journal's entries (`journal`, by name) or every
    /// journal's, in one read. Days are `calendar`'s (the user's time zone).
    public func periodNumbers(_ period: JournalPeriod, journal: String? = nil, calendar: Calendar = .current) throws -> PeriodNumbers {
        try pool.read { db in
            let journalId = try journal.flatMap { try Self.journal(db, named: $0).id }
            let scope = PeriodScope(start: period.start, end: period.end, journalId: journalId)
            let totals = try scope.fetchOne(db, """
                SELECT count(*) AS entries, count(score) AS scored, avg(score) AS average, max(createdAt) AS lastEntryAt FROM period_entry
                """)
            let previous = period.previous(calendar: calendar)
            let before = try PeriodScope(start: previous.start, end: previous.end, journalId: journalId)
                .fetchOne(db, "SELECT count(*) AS entries, avg(score) AS average FROM period_entry")
            var moods = Dictionary(uniqueKeysWithValues: Mood.allCases.map { ($0.rawValue, 0) })
            for row in try scope.fetchAll(db, "SELECT mood, count(*) AS n FROM period_entry WHERE mood IS NOT NULL GROUP BY mood") {
                moods[row["mood"], default: 0] = row["n"]
            }
            let themes = try scope.fetchAll(db, """
                SELECT theme, count(*) AS n FROM period_entry WHERE theme IS NOT NULL GROUP BY theme ORDER BY n DESC, theme LIMIT 3
                """).map { PeriodNumbers.Count(name: $0["theme"], count: $0["n"]) }
            let seconds: Double = try scope.fetchOne(db, """
                SELECT coalesce(sum(r.durationSeconds), 0) AS seconds FROM recording r JOIN period_entry pe ON pe.id = r.entryId
                WHERE r.state = 'complete'
                """)["seconds"]
            let words: Int = try scope.fetchAll(db, """
                SELECT coalesce(sum(CASE WHEN w = '' THEN 0 ELSE length(w) - length(replace(w, ' ', '')) + 1 END), 0) AS words
                FROM (SELECT \(Self.collapsedSQL("text")) AS w FROM spaced_words)
                """, with: Self.spacedTables("spaced_words", from: "period_entry", column: "text", characters: Self.whitespace))
                .first?["words"] ?? 0
            let lastEntryAt: Date? = totals["lastEntryAt"]
            return PeriodNumbers(
                entries: totals["entries"], minutesSpoken: seconds / 60, words: words, moods: moods, moodEntries: totals["scored"],
                averageMoodScore: totals["average"], previousEntries: before["entries"], previousAverageMoodScore: before["average"],
                trend: try Self.trend(db, scope: scope, parts: period.parts(calendar: calendar)), themes: themes,
                people: try Self.people(db, scope: scope), streakDays: try Self.streak(db, scope: scope, lastEntryAt: lastEntryAt, calendar: calendar),
                lastEntryAt: lastEntryAt)
        }
    }

    /// Each part's entries and mean mood score: the parts' bounds as a table SQL joins on.
    private static func trend(_ db: Database, scope: PeriodScope, parts: [JournalPeriod.Part]) throws -> [PeriodNumbers.TrendPoint] {
        guard !parts.isEmpty else { return [] }
        let values = parts.indices.map { _ in "(?, ?, ?)" }.joined(separator: ", ")
        var arguments: StatementArguments = []
        for (index, part) in parts.enumerated() { arguments += [index, part.start, part.end] }
        let rows = try scope.fetchAll(db, """
            SELECT part.n AS n, count(pe.id) AS entries, avg(pe.score) AS average
            FROM part LEFT JOIN period_entry pe ON pe.createdAt >= part.start AND pe.createdAt < part.end
            GROUP BY part.n ORDER BY part.n
            """, with: ["part(n, start, end) AS (VALUES \(values))"], arguments)
        return rows.map { row in
            let part = parts[row["n"]]
            return PeriodNumbers.TrendPoint(label: part.label, start: part.start, entries: row["entries"], averageMoodScore: row["average"])
        }
    }

    /// The people the period's entries name (as a word: "Anna", "Anna's", not "Annabel"; in
    /// any ASCII case) and the answers each recorded in it.
    private static func people(_ db: Database, scope: PeriodScope) throws -> [PeriodNumbers.PersonCount] {
        var arguments: StatementArguments = [scope.start, scope.end]
        var answersScope = ""
        if let journalId = scope.journalId {
            answersScope = " AND q.journalId = ?"
            arguments += [journalId]
        }
        let name = "replace(replace(replace(\(collapsedSQL("n.name")), '\\', '\\\\'), '%', '\\%'), '_', '\\_')"
        let separators = punctuation.unicodeScalars.map(\.value) + whitespace
        let tables = spacedTables("spaced_text", from: "period_entry", column: "text", characters: separators)
            + ["period_text(padded) AS (SELECT ' ' || \(collapsedSQL("text")) || ' ' FROM spaced_text)"]
            + spacedTables("spaced_name", from: "(SELECT id, name FROM person WHERE relationship != '\(Person.selfRelationship)')",
                           column: "name", characters: separators)
        return try scope.fetchAll(db, """
            SELECT name, mentions, answers FROM (
                SELECT p.name AS name,
                       (SELECT count(*) FROM period_text t WHERE t.padded LIKE '% ' || \(name) || ' %' ESCAPE '\\') AS mentions,
                       (SELECT count(*) FROM assignment a JOIN question q ON q.id = a.questionId
                        WHERE a.personId = p.id AND a.status = 'answered' AND a.answeredAt >= ? AND a.answeredAt < ?\(answersScope)) AS answers
                FROM spaced_name n JOIN person p ON p.id = n.id)
            WHERE mentions + answers > 0 ORDER BY mentions + answers DESC, name
            """, with: tables, arguments).map { PeriodNumbers.PersonCount(name: $0["name"], mentions: $0["mentions"], answers: $0["answers"]) }
    }

    /// The run of consecutive days with an entry that ends on the day of `lastEntryAt`, as
    /// `stats` counts its streaks (the same days, the same count).
    private static func streak(_ db: Database, scope: PeriodScope, lastEntryAt: Date?, calendar: Calendar) throws -> Int {
        guard let lastEntryAt, let last = JournalStats.dayNumber(lastEntryAt, calendar) else { return 0 }
        var sql = "SELECT createdAt FROM entry WHERE createdAt < ?"
        var arguments: StatementArguments = [scope.end]
        if let journalId = scope.journalId {
            sql += " AND journalId = ?"
            arguments += [journalId]
        }
        let days = Set(try Date.fetchAll(db, sql: sql, arguments: arguments).compactMap { JournalStats.dayNumber($0, calendar) })
        return JournalStats.streaks(days: days, today: last).current
    }

    /// `text` (an SQL expression of spaces and words) with each run of spaces as one space and
    /// none at either end: its words are then the spaces plus one. (A run becomes one space by
    /// marking each space's end with char(1) and dropping the marks that follow a space.)
    static func collapsedSQL(_ text: String) -> String {
        "replace(replace(replace(trim(\(text)), ' ', ' ' || char(1)), char(1) || ' ', ''), char(1), '')"
    }

    /// Common tables that give each row of `source` (its `id` and `column`) again with every
    /// one of `characters` in `column` as a space, the last table named `name`. A few
    /// characters a table: SQLite's parser takes only so many nested calls in one expression.
    static func spacedTables(_ name: String, from source: String, column: String, characters: [UInt32]) -> [String] {
        let chunks = stride(from: 0, to: characters.count, by: 6).map { Array(characters[$0..<min($0 + 6, characters.count)]) }
        return chunks.enumerated().map { index, chunk in
            let replaced = chunk.reduce(column) { "replace(\($0), char(\($1)), ' ')" }
            let table = index == chunks.count - 1 ? name : "\(name)_\(index)"
            let from = index == 0 ? source : "\(name)_\(index - 1)"
            return "\(table) AS (SELECT id, \(replaced) AS \(column) FROM \(from))"
        }
    }

    /// Tab, line feed, vertical tab, form feed, carriage return, no-break space, line and
    /// paragraph separators, the ideographic space.
    private static let whitespace: [UInt32] = [9, 10, 11, 12, 13, 160, 0x2028, 0x2029, 0x3000]
    /// What can stand next to a name ("Anna's", "(Tom)"): read as a space, as the entry's
    /// checks read a name as a word of its own.
    private static let punctuation = ".,;:!?\"'()[]{}/…“”‘’«»"
}
