import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// The archive `export --format json` writes, as text made while the journal is read: the
/// document `JSONText.encode` would print for the whole `JournalArchive` (the same bytes, so
/// `import` reads either), one row at a time.
enum ArchiveText {
    /// Writes the archive of what `selection` keeps, exported at `now`, to `write`, piece by piece.
    static func write(_ archiver: JournalArchiver, _ selection: ArchiveSelection, now: Date,
                      to write: (String) throws -> Void) throws {
        try withoutActuallyEscaping(write) { try writeArchive(archiver, selection, now: now, to: $0) }
    }

    private static func writeArchive(_ archiver: JournalArchiver, _ selection: ArchiveSelection, now: Date,
                                     to write: @escaping (String) throws -> Void) throws {
        try write("{\n  \"exportedAt\" : \(try fragment(now)),\n  \"format\" : \(try fragment(JournalArchive.formatName)),\n")
        var rows: JSONArrayStream?
        var tables = 0
        try archiver.readArchive(selection) { part in
            switch part {
            case .migrations(let applied):
                try write("  \"migrations\" : ")
                var list = JSONArrayStream(indent: "  ", write: write)
                for migration in applied { try list.append(migration) }
                try list.finish()
                try write(",\n  \"tables\" : [")
            case .table(let name):
                try rows?.finish()
                if rows != nil { try write("\n    }") }
                try write((tables == 0 ? "\n" : ",\n") + "    {\n      \"name\" : \(try fragment(name)),\n      \"rows\" : ")
                tables += 1
                rows = JSONArrayStream(indent: "      ", write: write)
            case .row(let row):
                try rows?.append(row)
            }
        }
        try rows?.finish()
        try write((rows == nil ? "\n\n  ]" : "\n    }\n  ]") + ",\n  \"version\" : \(JournalArchive.currentVersion)\n}\n")
    }

    /// A single value as JSON (a quoted, escaped string; a date as ISO 8601), as the archive's encoder writes it.
    private static func fragment<Value: Encodable>(_ value: Value) throws -> String {
        try JSONText.encode(value, pretty: false)
    }
}

/// What `import` says it did.
package enum ImportText {
    /// The rows imported per table (`JournalArchiver.importArchive`'s counts), for the home
    /// they went into.
    package static func summary(_ imported: [String: Int], into home: DataHome) -> String {
        let counts = ["journal", "person", "question", "assignment", "entry", "recording", "transcript"]
            .map { "\($0) \(imported[$0] ?? 0)" }.joined(separator: ", ")
        return "Imported into \(TerminalText.escaped(home.url.path)): \(counts) (rows per table)."
    }
}
