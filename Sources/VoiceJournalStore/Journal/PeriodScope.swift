import Foundation
import GRDB

/// The entries of one period (and maybe one journal), as the common table `period_entry`
/// (id, createdAt, mood, theme, score, text) every number is counted from. `text` is what the
/// entry says: its typed text, else its latest recording's transcript as corrected.
struct PeriodScope {
    var start: Date
    var end: Date
    var journalId: Int64?

    /// A mood's score as `Mood.score` has it: one scale for `stats` and the periods.
    static let scoreSQL = "CASE e.mood " + Mood.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.score)" }.joined(separator: " ") + " END"

    var table: (sql: String, arguments: StatementArguments) {
        var sql = """
            period_entry AS (
                SELECT e.id, e.createdAt, e.mood, e.theme, \(Self.scoreSQL) AS score,
                       CASE WHEN e.content != '' THEN e.content ELSE coalesce(t.text, '') END AS text
                FROM entry e
                LEFT JOIN recording r ON r.id = (SELECT max(id) FROM recording WHERE entryId = e.id)
                LEFT JOIN transcript t ON t.recordingId = r.id
                WHERE e.createdAt >= ? AND e.createdAt < ?
            """
        var arguments: StatementArguments = [start, end]
        if let journalId {
            sql += " AND e.journalId = ?"
            arguments += [journalId]
        }
        return (sql + ")", arguments)
    }

    /// Rows of `select`, with `period_entry` (and `extra`, further common tables) defined first.
    func fetchAll(_ db: Database, _ select: String, with extra: [String] = [], _ arguments: StatementArguments = []) throws -> [Row] {
        let (sql, tableArguments) = table
        // The arguments go in the order the SQL names them: `period_entry`'s, then `extra`'s and `select`'s.
        let tables = [sql] + extra
        var all = tableArguments
        all += arguments
        return try Row.fetchAll(db, sql: "WITH " + tables.joined(separator: ", ") + "\n" + select, arguments: all)
    }

    func fetchOne(_ db: Database, _ select: String) throws -> Row {
        try fetchAll(db, select).first ?? Row()
    }
}
