import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal search` with a filter, through the built binary.
@Suite(.onTestThreads) struct SearchCommandTests {
    @Test func aFilteredSearchListsTheFilteredEntriesBestMatchesWhenOthersMatchBetter() throws {
        let folder = try TemporaryFolder("vj-search")
        let cli = VoicejournalBinary(home: folder.path("home"))
        _ = try cli.succeed(["journal", "create", "Trips"])
        // Twenty entries that match better than any in Trips fill the first rows ranked.
        for i in 0..<20 {
            _ = try cli.succeed(["entry", "add", "--text", "harbour harbour at dawn \(i)"])
        }
        // In Trips, fewer other words make a better match.
        let trips = ["harbour and the long ferry ride over",
                     "harbour, then the bus, then the long walk up the hill",
                     "the harbour, a market, two museums and a very late dinner by the water"]
        for text in trips.reversed() {
            _ = try cli.succeed(["entry", "add", "--journal", "Trips", "--text", text])
        }

        let top = try #require(try cli.succeed(["search", "harbour", "--limit", "2", "--json"]).json() as? [[String: Any]])
        #expect(top.allSatisfy { $0["journal"] as? String == "Personal" })
        let filtered = try #require(try cli.succeed(["search", "harbour", "--journal", "trips", "--limit", "2", "--json"])
            .json() as? [[String: Any]])
        #expect(filtered.compactMap { $0["snippet"] as? String } == [
            "[harbour] and the long ferry ride over",
            "[harbour], then the bus, then the long walk up the hill",
        ])
        let all = try #require(try cli.succeed(["search", "harbour", "--journal", "Trips", "--limit", String(Int.max), "--json"])
            .json() as? [Any])
        #expect(all.count == 3, "any --limit, however large")
        let table = try cli.succeed(["search", "harbour", "--journal", "Trips", "--limit", "2"]).stdout
        #expect(table.contains("Trips") && table.contains("[harbour] and the long ferry ride over") && !table.contains("Personal"),
                "\(table)")
    }
}
