import Foundation
import GRDB

extension JournalStore {
    /// How many rows of the search index (entries and transcripts) each FTS5 term matches,
    /// counted up to `cap` (a term matching more is simply common: counting every row of a
    /// word in most of 100,000 transcripts would cost more than the search itself), and how
    /// many entries the journal holds: what weighs a rare word above a common one when
    /// `ask` ranks sentences. A term FTS5 refuses counts as matching nothing.
    public func termCounts(_ terms: [String], cap: Int = 5_000) throws -> (counts: [String: Int], entries: Int) {
        try pool.read { db in
            var counts: [String: Int] = [:]
            for term in Set(terms) {
                counts[term] = (try? Int.fetchOne(db, sql: """
                    SELECT count(*) FROM (SELECT 1 FROM search_index WHERE search_index MATCH ? LIMIT ?)
                    """, arguments: [term, cap])) ?? 0
            }
            return (counts, try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0)
        }
    }
}
