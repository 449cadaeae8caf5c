import Foundation
import GRDB

/// Which part of the journal an archive holds: everything, or one journal's and a stretch of
/// time's. Rows are chosen table by table, parents first, and a row is kept only when every
/// row it refers to is kept, so the part imports on its own like the whole.
///
/// - `journal`: that journal, its questions and their assignments, its entries; people all.
/// - `since` / `until`: entries created in that stretch, and recordings made in it.
/// - Recordings follow their entry or assignment; a recording of neither (a batch file) is
///   kept without a journal named. Transcripts, jobs, chunks and any other table follow the
///   rows they refer to.
/// - A week's or a month's reflection (no entry) goes where all of its period's entries go.
/// - Conversations with the journal (`ask`) go only into a whole archive, and so do the
///   nudges to journal sent (`nudge`), which belong to no journal and no entry.
package struct ArchiveSelection: Sendable, Equatable {
    package var journal: String?
    /// From this moment on.
    package var since: Date?
    /// Before this moment.
    package var until: Date?

    package init(journal: String? = nil, since: Date? = nil, until: Date? = nil) {
        self.journal = journal
        self.since = since
        self.until = until
    }

    /// The values kept so far of every column some foreign key refers to, per table.
    struct Kept {
        /// The columns foreign keys refer to (`[table: [column]]`): only those are remembered.
        let referenced: [String: Set<String>]
        private var values: [String: [String: Set<DatabaseValue>]] = [:]

        init(referenced: [String: Set<String>]) { self.referenced = referenced }

        /// The keys a table's rows will give, noted row by row while it is read: only once
        /// the table is finished do its rows count for the tables after it.
        struct TableKeys {
            let table: String
            let wanted: Set<String>
            fileprivate(set) var columns: [String: Set<DatabaseValue>] = [:]

            mutating func note(_ row: Row) {
                for column in wanted { columns[column, default: []].insert(row[column]) }
            }
        }

        func started(_ table: String) -> TableKeys { TableKeys(table: table, wanted: referenced[table] ?? []) }

        mutating func finish(_ keys: TableKeys) {
            guard referenced[keys.table] != nil else { return }
            values[keys.table] = keys.columns
        }

        func contains(_ value: DatabaseValue, table: String, column: String) -> Bool {
            values[table]?[column]?.contains(value) ?? false
        }
    }

    /// Whether `row` of `table` belongs to the selection, given the rows kept of the tables before it.
    func keeps(_ row: Row, of table: String, foreignKeys: [ForeignKeyInfo], kept: Kept) throws -> Bool {
        for key in foreignKeys {
            for (origin, destination) in key.mapping {
                let value: DatabaseValue = row[origin]
                if !value.isNull, !kept.contains(value, table: key.destinationTable, column: destination) { return false }
            }
        }
        switch table {
        case Journal.databaseTableName:
            guard let journal else { return true }
            return try row.decode(String.self, forColumn: "name").caseInsensitiveCompare(journal) == .orderedSame
        case Entry.databaseTableName:
            return try inRange(row)
        case Recording.databaseTableName:
            let ownerless = (row["entryId"] as DatabaseValue).isNull && (row["assignmentId"] as DatabaseValue).isNull
            if ownerless, journal != nil { return false }
            // A voice entry's recording goes with its entry, whenever it was finished.
            return try !(row["entryId"] as DatabaseValue).isNull || inRange(row)
        case StoredReflection.databaseTableName where (row["entryId"] as DatabaseValue).isNull:
            return try keepsPeriodReflection(row)
        case AskConversation.databaseTableName, Nudge.databaseTableName:
            // A conversation's answers draw on any journal and any time, and a nudge is the
            // user's, not a journal's: only a whole archive holds them.
            return journal == nil && since == nil && until == nil
        default:
            return true
        }
    }

    /// A week's or a month's reflection tells of every entry of its period in the journal it
    /// covered (or in all of them): it goes only where all of those go — into a whole archive,
    /// into one journal's when it covered that journal alone, into a stretch's when the stretch
    /// holds its whole period.
    private func keepsPeriodReflection(_ row: Row) throws -> Bool {
        if let journal {
            let fields = try row.decode(String?.self, forColumn: "fields")
            let object = fields.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
            guard let covered = object?["journal"] as? String, covered.caseInsensitiveCompare(journal) == .orderedSame else { return false }
        }
        guard since != nil || until != nil else { return true }
        guard let start = try row.decode(Date?.self, forColumn: "periodStart"),
              let end = try row.decode(Date?.self, forColumn: "periodEnd") else { return false }
        return since.map { start >= $0 } ?? true && until.map { end <= $0 } ?? true
    }

    /// Whether the row's `createdAt` lies in the stretch; read only when there is one, so a
    /// whole export carries a row whose date was damaged (as it is) rather than failing on it.
    private func inRange(_ row: Row) throws -> Bool {
        guard since != nil || until != nil else { return true }
        guard let date = try row.decode(Date?.self, forColumn: "createdAt") else { return false }
        return since.map { date >= $0 } ?? true && until.map { date < $0 } ?? true
    }
}
