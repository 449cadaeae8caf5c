import Foundation
import GRDB

/// Which rows of a backup's snapshot bring chosen entries back: the entries, every row that
/// belongs to them (recordings, transcripts, jobs: rows that refer to them, and so on), and
/// the rows they refer to (journal, person, question, assignment) that the journal no longer
/// has. A row of the second kind the journal still has is left as it is.
struct RestorePlan {
    /// The rows to write, by table, parents first: rowids in the snapshot.
    private(set) var rows: [(table: String, rowids: [Int64])] = []
    /// Rows the journal may already have (the entries' parents): written only when missing.
    private(set) var parents: Set<RowKey> = []
    /// The audio names of the recordings restored.
    private(set) var audioNames: [String] = []

    struct RowKey: Hashable {
        let table: String
        let rowid: Int64
    }

    /// Tables never restored this way: chunk plans (see `RestoredRow`).
    static let leftOut: Set<String> = ["job_chunk", "chunked_job"]

    init(_ snapshot: Database, entries: [Int64]) throws {
        let tables = try JournalArchiver.archivedTables(snapshot).filter { !Self.leftOut.contains($0) }
        let keys = try Dictionary(uniqueKeysWithValues: tables.map { ($0, try snapshot.foreignKeys(on: $0)) })
        var chosen: [String: Set<Int64>] = [:]
        let found = Set(try Int64.fetchAll(snapshot, sql: "SELECT id FROM entry WHERE id IN (\(entries.map(String.init).joined(separator: ",")))"))
        if let absent = entries.first(where: { !found.contains($0) }) {
            throw StoreError(.notFound, "the backup holds no entry #\(absent)")
        }
        chosen[Entry.databaseTableName] = found
        // Down: rows that refer to chosen rows, table by table (parents come first).
        for table in tables where table != Entry.databaseTableName {
            var ids: Set<Int64> = []
            for key in keys[table] ?? [] {
                guard let targets = chosen[key.destinationTable], !targets.isEmpty else { continue }
                for (origin, destination) in key.mapping {
                    ids.formUnion(try Int64.fetchAll(snapshot, sql: """
                        SELECT rowid FROM \(table.quotedDatabaseIdentifier) WHERE \(origin.quotedDatabaseIdentifier) IN
                          (SELECT \(destination.quotedDatabaseIdentifier) FROM \(key.destinationTable.quotedDatabaseIdentifier)
                           WHERE rowid IN (\(targets.map(String.init).joined(separator: ","))))
                        """))
                }
            }
            if !ids.isEmpty { chosen[table] = ids }
        }
        // Up: the rows those refer to that are not among them, and theirs in turn.
        var work = chosen.flatMap { table, ids in ids.map { RowKey(table: table, rowid: $0) } }
        while let key = work.popLast() {
            for foreign in keys[key.table] ?? [] where !Self.leftOut.contains(foreign.destinationTable) {
                for (origin, destination) in foreign.mapping {
                    guard let parent = try Int64.fetchOne(snapshot, sql: """
                        SELECT rowid FROM \(foreign.destinationTable.quotedDatabaseIdentifier) WHERE \(destination.quotedDatabaseIdentifier) =
                          (SELECT \(origin.quotedDatabaseIdentifier) FROM \(key.table.quotedDatabaseIdentifier) WHERE rowid = ?)
                        """, arguments: [key.rowid]) else { continue }
                    let parentKey = RowKey(table: foreign.destinationTable, rowid: parent)
                    guard chosen[parentKey.table]?.contains(parent) != true, !parents.contains(parentKey) else { continue }
                    parents.insert(parentKey)
                    work.append(parentKey)
                }
            }
        }
        for table in tables {
            let ids = (chosen[table] ?? []).union(parents.filter { $0.table == table }.map(\.rowid))
            if !ids.isEmpty { rows.append((table, ids.sorted())) }
        }
        if let recordings = chosen[Recording.databaseTableName], !recordings.isEmpty {
            audioNames = try String.fetchAll(snapshot, sql: "SELECT path FROM recording WHERE rowid IN (\(recordings.map(String.init).joined(separator: ",")))")
        }
    }
}
