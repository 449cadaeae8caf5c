import VoiceJournalCSearchRank
import Foundation
import GRDB

/// How long a search may take before it stops with a message that says so, instead of
/// keeping the terminal (or `play --search`) waiting on a query that matches too much.
public enum SearchTimeLimit {
    /// Ten seconds: far more than any search takes on a journal of 100,000 entries or a
    /// transcript of 100,000 words (well under a second each), so it bites only a search
    /// that has gone wrong.
    public static let standard: Duration = .seconds(10)

    /// `$VOICEJOURNAL_SEARCH_SECONDS` when it is a positive number of seconds (tests shorten
    /// it, a huge journal may need more), else `standard`.
    public static func resolve(environment: [String: String]) -> Duration {
        guard let seconds = environment["VOICEJOURNAL_SEARCH_SECONDS"].flatMap(Double.init), seconds > 0, seconds.isFinite else {
            return standard
        }
        return .nanoseconds(Int64(min(seconds, 86_400) * 1e9))
    }

    /// A moment `limit` from now, as the C side measures time.
    static func deadline(after limit: Duration) -> Int64 {
        let (seconds, attoseconds) = limit.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return Int64.max }
        return search_deadline_now().addingReportingOverflow(nanoseconds + attoseconds / 1_000_000_000).partialValue
    }

    /// Runs `body` with `db`'s statements stopped at `deadline`; the search took too long
    /// when one stops there.
    static func enforce<T>(_ deadline: Int64, limit: Duration, on db: Database, _ body: () throws -> T) throws -> T {
        search_deadline_set(db.sqliteConnection, deadline)
        defer { search_deadline_set(db.sqliteConnection, 0) }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && search_deadline_now() >= deadline {
            throw tookTooLong(limit)
        }
    }

    /// The error of a search stopped at `limit`, saying how to narrow it.
    static func tookTooLong(_ limit: Duration) -> StoreError {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return StoreError(.tookTooLong, "the search took longer than \(String(format: "%g", seconds)) s and was stopped: "
            + "narrow it with fewer prefix terms (like w*), more words or a filter (--journal, --since, --person), "
            + "or allow it longer with VOICEJOURNAL_SEARCH_SECONDS")
    }
}
