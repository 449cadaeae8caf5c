import VoiceJournalCSearchRank
import Foundation
import GRDB

/// The second search index, for the scripts written without spaces between words (Chinese,
/// Japanese, Korean, Thai, Lao, Khmer, Myanmar).
///
/// `search_index` tokenizes with SQLite's own unicode61, which makes a whole Chinese or
/// Japanese sentence one token: a word inside it cannot be found. `search_index_cjk` holds
/// the same rows (only those with such characters) tokenized by `journal_words`, which makes
/// each such character a token of its own, so a query word becomes a phrase of its
/// characters. A search whose query has such characters runs on it instead, with the same
/// ranking, snippets and filters.
///
/// `journal_words` is registered by voicejournal on each connection; SQLite alone (the
/// sqlite3 shell, Python, an older voicejournal) cannot open a table that uses it. So no
/// trigger writes to `search_index_cjk`: the triggers only note which index rows changed
/// (in `search_index_pending`, a plain table anyone can write), and voicejournal brings the
/// second index up to date from `search_index` before it searches it (`syncScriptIndex`).
/// Everything else keeps working with SQLite alone, as before.
package enum SearchScripts {
    /// The second index and its pending rows.
    static let table = "search_index_cjk"
    static let pending = "search_index_pending"
    /// The ranking function over the second index (`journal_rank` over its docsize table).
    static let rank = "journal_rank_cjk"
    /// The second index's tokenizer: Porter stemming over `journal_words` (unicode61 with
    /// diacritics folded, each character of these scripts a token).
    static let tokenizer = "porter journal_words remove_diacritics 2"

    /// The code point ranges of the scripts without spaces (the C tokenizer's `is_spaceless`).
    static let ranges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF, 0x1000...0x109F, 0x1100...0x11FF, 0x1780...0x17FF, 0x3005...0x3007, 0x3040...0x30FF,
        0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
        0xFF66...0xFF9F, 0x20000...0x323AF,
    ]

    /// Whether text holds a character of these scripts (a query that needs the second index).
    package static func hasSpacelessScript(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in ranges.contains { $0.contains(scalar.value) } }
    }

    /// The SQL condition that the text `expression` holds such a character. GLOB compares a
    /// class's ranges by code point, but parses the class again at every character (about
    /// 250 µs for 120 words): two cheap tests go first, so that text without a character
    /// from U+0E00 on (English, German, Russian, Arabic…) costs about 1 to 15 µs. Every
    /// trigger on an entry or transcript runs it.
    static func holdsSpaceless(_ expression: String) -> String {
        "(length(CAST(\(expression) AS BLOB)) > length(\(expression)) AND \(expression) GLOB '*[\u{0E00}-\u{10FFFF}]*' "
            + "AND \(expression) GLOB '\(globPattern)')"
    }

    /// A GLOB pattern matching text that holds such a character.
    static var globPattern: String {
        let classes = ranges.compactMap { range -> String? in
            guard let low = Unicode.Scalar(range.lowerBound), let high = Unicode.Scalar(range.upperBound) else { return nil }
            return "\(Character(low))-\(Character(high))"
        }
        return "*[" + classes.joined() + "]*"
    }

    /// Makes `journal_words` and `journal_rank_cjk` known to this connection (every
    /// connection of a journal has them, see `JournalStore`; the migration registers them on
    /// its own connection too).
    static func register(_ db: Database) throws {
        var code = search_words_register(db.sqliteConnection)
        if code == SQLITE_OK { code = search_rank_register_named(db.sqliteConnection, rank, table + "_docsize") }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot set up the search of scripts without spaces")
        }
    }

    /// The columns of an index, quoted, in order. The second index was made with
    /// `search_index`'s; a column added to `search_index` later is not in it.
    static func columns(_ db: Database, of index: String = table) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(index))").map { row in
            let name: String = row["name"]
            return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// Brings the second index up to date with the rows `search_index_pending` names: each
    /// is taken out and, when it still holds such characters, copied again from `search_index`.
    package static func sync(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(pending))") == true else { return }
        let columns = try columns(db).joined(separator: ", ")
        try db.execute(sql: "DELETE FROM \(table) WHERE rowid IN (SELECT indexRow FROM \(pending))")
        try db.execute(sql: """
            INSERT INTO \(table) (rowid, \(columns)) SELECT rowid, \(columns) FROM search_index
            WHERE rowid IN (SELECT indexRow FROM \(pending)) AND \(holdsSpaceless("(title || ' ' || body)"))
            """)
        try db.execute(sql: "DELETE FROM \(pending)")
    }
}

extension Migrations {
    /// The second search index, for the scripts written without spaces (see `SearchScripts`).
    package static let searchScripts = "v15-search-scripts"

    /// Makes `search_index_cjk` with `search_index`'s columns (whatever they are by now),
    /// fills it with the rows that hold such characters, and adds the triggers that note
    /// changed rows in `search_index_pending`.
    static func addScriptSearchIndex(_ db: Database) throws {
        try SearchScripts.register(db)
        guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_index'"),
              let name = sql.range(of: #"search_index\s+USING"#, options: .regularExpression),
              let tokenize = sql.range(of: #"tokenize\s*=\s*'[^']*'"#, options: .regularExpression) else {
            throw DatabaseError(message: "the search index is not as v5 made it")
        }
        var create = sql
        create.replaceSubrange(tokenize, with: "tokenize = '\(SearchScripts.tokenizer)'")
        create.replaceSubrange(name, with: "\(SearchScripts.table) USING")
        let columns = try SearchScripts.columns(db, of: "search_index").joined(separator: ", ")
        func spaceless(_ expression: String) -> String { SearchScripts.holdsSpaceless(expression) }
        let note = "INSERT OR IGNORE INTO \(SearchScripts.pending) (indexRow) VALUES"
        try db.execute(sql: """
            \(create);
            CREATE TABLE \(SearchScripts.pending) (indexRow INTEGER PRIMARY KEY);
            INSERT INTO \(SearchScripts.table) (rowid, \(columns)) SELECT rowid, \(columns) FROM search_index
                WHERE \(spaceless("(title || ' ' || body)"));

            CREATE TRIGGER entry_search_cjk_insert AFTER INSERT ON entry
            WHEN \(spaceless("(coalesce(new.title, '') || ' ' || new.content)")) BEGIN
                \(note) (new.id * 2);
            END;
            CREATE TRIGGER entry_search_cjk_update AFTER UPDATE OF id, title, content ON entry
            WHEN \(spaceless("(coalesce(old.title, '') || ' ' || old.content)")) OR \(spaceless("(coalesce(new.title, '') || ' ' || new.content)")) BEGIN
                \(note) (old.id * 2);
                \(note) (new.id * 2);
            END;
            CREATE TRIGGER entry_search_cjk_delete AFTER DELETE ON entry
            WHEN \(spaceless("(coalesce(old.title, '') || ' ' || old.content)")) BEGIN
                \(note) (old.id * 2);
            END;

            CREATE TRIGGER transcript_search_cjk_insert AFTER INSERT ON transcript
            WHEN \(spaceless("new.text")) BEGIN
                \(note) (new.id * 2 + 1);
            END;
            CREATE TRIGGER transcript_search_cjk_update AFTER UPDATE OF id, text ON transcript
            WHEN \(spaceless("old.text")) OR \(spaceless("new.text")) BEGIN
                \(note) (old.id * 2 + 1);
                \(note) (new.id * 2 + 1);
            END;
            CREATE TRIGGER transcript_search_cjk_delete AFTER DELETE ON transcript
            WHEN \(spaceless("old.text")) BEGIN
                \(note) (old.id * 2 + 1);
            END;
            """)
    }
}
