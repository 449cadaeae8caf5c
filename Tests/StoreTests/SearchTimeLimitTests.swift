import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// A search has a time limit: past it, the search stops (SQLite stops its statements) with
/// an error that says so and how to narrow the search, and the connection searches again
/// as before.
@Suite(.onTestThreads) struct SearchTimeLimitTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    @Test func aSearchPastItsTimeLimitStopsSayingHowToNarrowItAndTheNextSearchRuns() throws {
        for index in 0..<200 {
            _ = try store.addEntry(journal: nil, title: nil, content: "harbour walk number \(index)", mood: nil, theme: nil)
        }
        do {
            _ = try store.search("harbour", timeLimit: .nanoseconds(1))
            Issue.record("a search with a limit of a nanosecond finished")
        } catch let error as StoreError {
            #expect(error.kind == .tookTooLong)
            #expect(error.description.hasPrefix("the search took longer than 1e-09 s and was stopped: narrow it with fewer prefix terms"),
                    "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
        // The limit went with the search: the same connection searches to the end again.
        #expect(try store.search("harbour", limit: 300).count == 200)
    }

    @Test func theLimitIsTenSecondsUnlessTheEnvironmentGivesAPositiveNumberOfSeconds() {
        #expect(SearchTimeLimit.resolve(environment: [:]) == .seconds(10))
        #expect(SearchTimeLimit.resolve(environment: ["VOICEJOURNAL_SEARCH_SECONDS": "2.5"]) == .milliseconds(2500))
        for ignored in ["0", "-1", "soon", "inf", "nan", ""] {
            #expect(SearchTimeLimit.resolve(environment: ["VOICEJOURNAL_SEARCH_SECONDS": ignored]) == .seconds(10), "\(ignored)")
        }
    }
}
