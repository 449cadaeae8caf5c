import Foundation
import GRDB

/// Where rows being written into a journal come from, for the words of a refusal.
package enum ArchiveSource: Sendable {
    /// `import` of an `export --format json` document.
    case export
    /// `restore` of a backup's database snapshot.
    case backup

    /// "this export cannot be imported" / "this backup cannot be restored".
    var cannot: String { self == .export ? "this export cannot be imported" : "this backup cannot be restored" }
    /// "nothing was imported" / "nothing was restored".
    var nothing: String { self == .export ? "nothing was imported" : "nothing was restored" }
    var noun: String { self == .export ? "export" : "backup" }
    var verb: String { self == .export ? "import" : "restore" }
}

/// Writes rows of an archive into the journal inside the caller's transaction, each checked
/// first (`ArchiveRowCheck`: types, closed sets, JSON, file paths) and refused, naming the
/// row and field, when it breaks a rule or clashes with a row already written.
struct ArchiveRowWriter {
    private let db: Database
    private let check: ArchiveRowCheck
    private let known: Set<String>
    private var schemas: [String: [ArchiveRowCheck.Column]] = [:]
    /// The rows written per table.
    private(set) var counts: [String: Int] = [:]

    init(_ db: Database, home: DataHome, source: ArchiveSource, tables: [String]) {
        self.db = db
        check = ArchiveRowCheck(files: HomeFiles(home), source: source)
        known = Set(tables)
    }

    /// Checks `row` of `table` and inserts it as it is (ids included).
    mutating func insert(_ row: [String: JournalArchive.Value], into table: String) throws {
        let source = check.source
        guard known.contains(table) else {
            throw StoreError.invalidInput("this \(source.noun) holds a table this voicejournal does not know: \(table)")
        }
        let schema = try schemas[table] ?? db.columns(in: table).map { column in
            ArchiveRowCheck.Column(name: column.name, type: column.type.uppercased(),
                                   isRequired: column.isNotNull && column.defaultValueSQL == nil)
        }
        schemas[table] = schema
        let names = row.keys.sorted()
        if let unknown = names.first(where: { name in !schema.contains { $0.name == name } }) {
            throw StoreError.invalidInput("this \(source.noun) has a column this voicejournal does not know: \(table).\(unknown)")
        }
        let index = counts[table, default: 0]
        try check.check(row, of: table, index: index, columns: schema)
        let statement = try db.cachedStatement(sql: """
            INSERT INTO \(table.quotedDatabaseIdentifier) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
            VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
            """)
        do {
            try statement.execute(arguments: StatementArguments(names.map { row[$0]?.databaseValue ?? .null }))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw Self.clash(error, item: ArchiveRowCheck.item(row, of: table, index: index), source: source)
        }
        counts[table] = index + 1
    }

    /// Refuses the whole write when a row refers to one that is not there (foreign keys are
    /// checked once, at the end: rows may come in any order).
    func checkReferences() throws {
        if let violation = try db.foreignKeyViolations().next() {
            throw StoreError.invalidInput("\(check.source.cannot): \(violation.originTable) #\(violation.originRowID.map(String.init) ?? "?") "
                + "refers to a \(violation.destinationTable) the \(check.source.noun) does not hold; \(check.source.nothing)")
        }
    }

    /// A row the database refused as a duplicate (or against another of its rules), in one line.
    private static func clash(_ error: DatabaseError, item: String, source: ArchiveSource) -> StoreError {
        // SQLite's message names the columns ("UNIQUE constraint failed: entry.id"): shown, not read.
        let columns = (error.message ?? "").split(separator: ":", maxSplits: 1).dropFirst().first
            .map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
        let problem = switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_PRIMARYKEY, .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_ROWID:
            source == .export ? "repeats a value another row of the export has\(columns)"
                : "repeats a value a row of the journal already has\(columns)"
        default:
            "breaks a rule of the journal's tables\(columns)"
        }
        return StoreError.invalidInput("\(source.cannot): \(item) \(problem); \(source.nothing)")
    }
}
