import Foundation
import GRDB

/// The whole journal as one JSON document, table by table: `export --format json` writes it,
/// `import` reads it back into an empty home row for row.
///
/// Every table of the schema is carried, found in the database itself rather than listed
/// here, so a table a later migration adds is exported and imported without a change to
/// this file. Left out: the migration log, SQLite's own tables, and the search index (a
/// virtual table with its shadow tables), which the import rebuilds through its triggers.
package struct JournalArchive: Codable, Sendable, Equatable {
    /// Says what the document is, for a reader that finds it on its own.
    package var format: String
    package var version: Int
    /// The migrations the exporting journal had run: an import needs them all.
    package var migrations: [String]
    package var exportedAt: Date
    /// Parents before children (by foreign key), so the document reads top-down.
    package var tables: [Table]

    package static let formatName = "voicejournal-archive"
    package static let currentVersion = 1

    /// One table: its rows as objects keyed by column name.
    package struct Table: Codable, Sendable, Equatable {
        package var name: String
        package var rows: [[String: Value]]
    }

    /// One SQLite value as JSON: null, a whole number, a real number or text. (The schema
    /// holds no blobs; a blob met on export is an error rather than a silent loss.)
    package enum Value: Codable, Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let integer = try? container.decode(Int64.self) { self = .integer(integer) }
            else if let real = try? container.decode(Double.self) { self = .real(real) }
            else { self = .text(try container.decode(String.self)) }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let value): try container.encode(value)
            case .real(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            }
        }

        init(_ value: DatabaseValue, table: String, column: String) throws {
            switch value.storage {
            case .null: self = .null
            case .int64(let integer): self = .integer(integer)
            case .double(let real): self = .real(real)
            case .string(let text): self = .text(text)
            case .blob:
                throw StoreError.inconsistent("\(table).\(column) holds binary data, which an archive cannot carry")
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case .integer(let value): value.databaseValue
            case .real(let value): value.databaseValue
            case .text(let value): value.databaseValue
            }
        }
    }
}

extension JournalArchive {
    /// A row of `table` as an archive holds it: its values by column name.
    static func values(of row: Row, table: String) throws -> [String: Value] {
        var object: [String: Value] = [:]
        for (column, value) in row { object[column] = try Value(value, table: table, column: column) }
        return object
    }
}

/// A part of an archive as it is read, in document order (see `JournalArchiver.readArchive`).
package enum ArchivePart: Sendable {
    /// The migrations the journal has run: first, once.
    case migrations([String])
    /// A table begins: its rows follow.
    case table(String)
    /// A row of the table that began last, as objects keyed by column name.
    case row([String: JournalArchive.Value])
}

extension JournalArchiver {
    /// The journal as an archive, read in one transaction (a consistent snapshot): all of
    /// it, or the part `selection` keeps (see `ArchiveSelection`). Held whole in memory: an
    /// export writes `readArchive`'s parts as they come instead.
    package func archive(_ selection: ArchiveSelection = ArchiveSelection(), now: Date = Date()) throws -> JournalArchive {
        var migrations: [String] = []
        var tables: [JournalArchive.Table] = []
        try readArchive(selection) { part in
            switch part {
            case .migrations(let applied): migrations = applied
            case .table(let name): tables.append(JournalArchive.Table(name: name, rows: []))
            case .row(let row): tables[tables.count - 1].rows.append(row)
            }
        }
        return JournalArchive(format: JournalArchive.formatName, version: JournalArchive.currentVersion,
                              migrations: migrations, exportedAt: now, tables: tables)
    }

    /// What an archive of the journal (or of the part `selection` keeps) holds, handed to
    /// `body` part by part as it is read in one transaction: the migrations, then each table
    /// and its rows one at a time, so an export of any size takes the memory of one row
    /// (and of the keys other tables' rows refer to).
    package func readArchive(_ selection: ArchiveSelection = ArchiveSelection(), _ body: (ArchivePart) throws -> Void) throws {
        try pool.read { db in
            try body(.migrations(try Self.appliedMigrations(db)))
            let names = try Self.archivedTables(db)
            let foreignKeys = try Dictionary(uniqueKeysWithValues: names.map { ($0, try db.foreignKeys(on: $0)) })
            var referenced: [String: Set<String>] = [:]
            for key in foreignKeys.values.joined() { referenced[key.destinationTable, default: []].formUnion(key.mapping.map(\.destination)) }
            var kept = ArchiveSelection.Kept(referenced: referenced)
            for name in names {
                try body(.table(name))
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY rowid")
                var keptRows = kept.started(name)
                while let row = try rows.next() {
                    guard try selection.keeps(row, of: name, foreignKeys: foreignKeys[name] ?? [], kept: kept) else { continue }
                    keptRows.note(row)
                    try body(.row(try JournalArchive.values(of: row, table: name)))
                }
                kept.finish(keptRows)
            }
        }
    }

    /// Tables made from the others and made again when missing: `ask`'s embeddings.
    static let derivedTables: Set<String> = ["passage_vector"]

    /// The tables an archive carries, parents first (a table after every table it refers to).
    static func archivedTables(_ db: Database) throws -> [String] {
        let schema = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
        let virtual = schema.compactMap { row -> String? in
            let sql: String = row["sql"] ?? ""
            return sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") ? row["name"] : nil
        }
        let names = schema.compactMap { row -> String? in row["name"] }.filter { name in
            !name.hasPrefix("sqlite_") && name != "grdb_migrations" && !derivedTables.contains(name)
                && !virtual.contains { name == $0 || name.hasPrefix($0 + "_") }
        }
        var ordered: [String] = []
        var visiting: Set<String> = []
        func visit(_ name: String) throws {
            guard !ordered.contains(name), !visiting.contains(name) else { return }
            visiting.insert(name)
            for parent in try db.foreignKeys(on: name).map(\.destinationTable) where names.contains(parent) && parent != name {
                try visit(parent)
            }
            ordered.append(name)
        }
        for name in names { try visit(name) }
        return ordered
    }

    static func appliedMigrations(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }
}
