import CSearchRank
import Foundation
import GRDB

extension Migrations {
    /// The search index tokenized so that words of every script are found (see `searchTokenizer`).
    public static let searchScripts = "v15-search-scripts"

    /// The search index's tokenizer: Porter stemming over `journal_words`, which is
    /// unicode61 with diacritics folded (`schon` finds `schön`, `ÖL` finds `öl`) and each
    /// character of a script written without spaces (Chinese, Japanese, Korean, Thai…) a
    /// token of its own, so a word inside a sentence of them is found. A migration that makes
    /// the index again uses it.
    public static let searchTokenizer = "porter journal_words remove_diacritics 2"

    /// Makes `journal_words` known to this connection (every connection of a journal has it,
    /// see `JournalStore`; a migration run on a bare connection has it too).
    static func registerSearchTokenizer(_ db: Database) throws {
        let code = search_words_register(db.sqliteConnection)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot set up the search tokenizer")
        }
    }

    /// The search index again with `searchTokenizer`, the same columns (whatever they are by
    /// now) and rows: an FTS5 table cannot change its tokenizer, so its rows are copied out,
    /// the table made again and the rows put back (and tokenized anew). The triggers that
    /// keep it in sync name it only in their bodies, so they stay as they are.
    static func retokenizeSearchIndex(_ db: Database) throws {
        try registerSearchTokenizer(db)
        guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_index'") else {
            return
        }
        guard let tokenize = sql.range(of: #"tokenize\s*=\s*'[^']*'"#, options: .regularExpression) else {
            throw DatabaseError(message: "the search index has no tokenizer to replace: \(sql)")
        }
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(search_index)").map { row -> String in
            let name: String = row["name"]
            return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ", ")
        try db.execute(sql: """
            CREATE TEMP TABLE search_index_rows AS SELECT rowid AS indexRow, \(columns) FROM search_index;
            DROP TABLE search_index;
            \(sql.replacingCharacters(in: tokenize, with: "tokenize = '\(searchTokenizer)'"));
            INSERT INTO search_index (rowid, \(columns)) SELECT indexRow, \(columns) FROM search_index_rows ORDER BY indexRow;
            DROP TABLE temp.search_index_rows;
            """)
    }
}
