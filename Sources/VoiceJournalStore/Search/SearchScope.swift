import Foundation
import GRDB

/// Which of the indexed things a search may return, as SQL: entries (their title, text and
/// transcripts) and answers to assignments (their transcripts, with no entry of their own).
///
/// Entry conditions are on `entry e JOIN journal j`; answer conditions on `transcript t`,
/// `recording r`, `assignment a`, `question q` and `journal qj`. A filter an answer cannot
/// meet (a mood, a theme, a kind other than voice) leaves answers out; `--person` leaves
/// entries out (they are not anyone's answers).
struct SearchScope {
    /// Conditions an entry must meet (empty: every entry), nil when no entry can pass.
    let entries: (sql: [String], arguments: StatementArguments)?
    /// Conditions an answer must meet (empty: every answer), nil when no answer can pass.
    let answers: (sql: [String], arguments: StatementArguments)?

    /// The scope of `filter`, answers narrowed to `personId` when it is set.
    init(filter: EntryFilter, personId: Int64?) {
        entries = personId == nil ? filter.conditions() : nil
        var sql: [String] = []
        var arguments: StatementArguments = []
        let answersFit = filter.mood == nil && filter.theme == nil && (filter.kind == nil || filter.kind == .voice)
        if answersFit {
            sql.append("a.id IS NOT NULL")
            if let journal = filter.journal { sql.append("qj.name = ? COLLATE NOCASE"); arguments += [journal] }
            if let personId { sql.append("a.personId = ?"); arguments += [personId] }
            if let since = filter.since { sql.append("r.createdAt >= ?"); arguments += [since] }
            if let until = filter.until { sql.append("r.createdAt < ?"); arguments += [until] }
            if let language = filter.languageCondition(recording: "lr.id = r.id") { sql.append(language.sql); arguments += language.arguments }
        }
        answers = answersFit ? (sql.count > 1 ? sql : [], sql.count > 1 ? arguments : []) : nil
    }

    /// True when nothing narrows the search: every indexed row may be a hit (a transcript of
    /// a batch file in no journal too).
    var isUnfiltered: Bool { entries?.sql.isEmpty == true && answers?.sql.isEmpty == true }

    /// True when no row can pass (an answerer's mood, say).
    var isEmpty: Bool { entries == nil && answers == nil }

    /// The SQL value, per joined hit row, saying whether it passes, and its arguments.
    var passes: (sql: String, arguments: StatementArguments) {
        if isUnfiltered { return ("1", []) }
        let entry = entries.map { Self.all($0.sql) } ?? "0"
        let answer = answers.map { $0.sql.isEmpty ? "a.id IS NOT NULL" : Self.all($0.sql) } ?? "0"
        // A condition on a NULL column is NULL, not false: each side is made 1 or 0.
        return ("CASE WHEN e.id IS NOT NULL THEN (CASE WHEN \(entry) THEN 1 ELSE 0 END) "
                + "ELSE (CASE WHEN \(answer) THEN 1 ELSE 0 END) END",
                (entries?.arguments ?? []) + (answers?.arguments ?? []))
    }

    /// Common table expressions naming the entries (`picked`) and answer transcripts
    /// (`pickedAnswers`) that pass, and the set of index rows they own, for a search that
    /// ranks only those rows.
    var pickedRows: (tables: String, rows: String, arguments: StatementArguments) {
        var tables: [String] = []
        var rows: [String] = []
        var arguments: StatementArguments = []
        if let entries {
            let condition = Self.all(entries.sql)
            tables.append("""
                picked AS MATERIALIZED (
                    SELECT e.id FROM entry e JOIN journal j ON j.id = e.journalId WHERE \(condition))
                """)
            rows.append("""
                SELECT id * 2 FROM picked
                UNION ALL
                SELECT t.id * 2 + 1 FROM picked p
                JOIN recording r ON r.entryId = p.id
                JOIN transcript t ON t.recordingId = r.id
                """)
            arguments += entries.arguments
        }
        if let answers {
            let condition = Self.all(answers.sql)
            tables.append("""
                pickedAnswers AS MATERIALIZED (
                    SELECT t.id FROM recording r
                    JOIN assignment a ON a.id = r.assignmentId
                    JOIN question q ON q.id = a.questionId
                    JOIN journal qj ON qj.id = q.journalId
                    JOIN transcript t ON t.recordingId = r.id
                    WHERE r.entryId IS NULL AND \(condition))
                """)
            rows.append("SELECT id * 2 + 1 FROM pickedAnswers")
            arguments += answers.arguments
        }
        return (tables.map { $0 + "," }.joined(separator: "\n"), rows.joined(separator: "\nUNION ALL\n"), arguments)
    }

    /// Conditions joined with AND; "1" (always true) for none.
    private static func all(_ conditions: [String]) -> String {
        conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
    }

    /// Whether at least `enough` entries and answers pass (counted only that far).
    func keepsAtLeast(_ enough: Int, _ db: Database) throws -> Bool {
        var kept = 0
        if let entries {
            let condition = Self.all(entries.sql)
            kept += try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (SELECT 1 FROM entry e JOIN journal j ON j.id = e.journalId
                                      WHERE \(condition) LIMIT ?)
                """, arguments: entries.arguments + [enough]) ?? 0
        }
        if let answers, kept < enough {
            let condition = Self.all(answers.sql)
            kept += try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (SELECT 1 FROM recording r
                                      JOIN assignment a ON a.id = r.assignmentId
                                      JOIN question q ON q.id = a.questionId
                                      JOIN journal qj ON qj.id = q.journalId
                                      WHERE r.entryId IS NULL AND \(condition) LIMIT ?)
                """, arguments: answers.arguments + [enough - kept]) ?? 0
        }
        return kept >= enough
    }
}
