import Foundation
import Testing
import VoiceJournalTestSupport

/// `search` with queries no person types: nested without end, thousands of terms, distances
/// past 32 bits. Each is a usage error in one line, at once, never a crash or a minute of work.
@Suite(.onTestThreads) struct SearchBoundsTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-search-bounds")
        cli = VoicejournalBinary(home: folder.path("home"))
        for text in ["Harbour walk with the dog at dawn", "The ferry left the harbour late", "Garden rain, then harbour lights"] {
            try cli.succeed(["entry", "add", "--text", text])
        }
    }

    /// A query too big to show in a test's name.
    struct Outsized: Sendable, CustomTestStringConvertible {
        let name: String
        let query: String
        /// What the refusal says.
        let fragment: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Outsized(name: "20,000 nested", query: String(repeating: "(", count: 20_000) + "harbour" + String(repeating: ")", count: 20_000),
                 fragment: "too long"),
        Outsized(name: "150 nested", query: String(repeating: "(", count: 150) + "harbour" + String(repeating: ")", count: 150),
                 fragment: "nest more than 30 deep"),
        Outsized(name: "NEAR nested", query: String(repeating: "(", count: 30) + "NEAR(harbour dog)" + String(repeating: ")", count: 30),
                 fragment: "nest more than"),
        Outsized(name: "a word 30,000 times", query: Array(repeating: "dog", count: 30_000).joined(separator: " "), fragment: "too long"),
        Outsized(name: "1,000 terms", query: Array(repeating: "harbour", count: 1_000).joined(separator: " "), fragment: "at most 200"),
        Outsized(name: "200 prefixes", query: Array(repeating: "a*", count: 200).joined(separator: " "), fragment: "at most 5"),
        Outsized(name: "NEAR past 32 bits", query: "NEAR(harbour dog, 2147483648)", fragment: "at most 100000 words"),
        Outsized(name: "NEAR past 64 bits", query: "NEAR(harbour dog, 99999999999999999999999)", fragment: "at most 100000 words"),
    ])
    func anOutsizedQueryIsAUsageErrorAtOnce(_ outsized: Outsized) throws {
        let started = Date()
        let result = try cli.run(["search", outsized.query])
        #expect(result.status == 2, "exit \(result.status)")
        #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains(outsized.fragment), "\(result.stderr.prefix(300))")
        #expect(result.stderr.utf8.count < 600, "the message does not repeat the whole query")
        #expect(Date().timeIntervalSince(started) < 5, "took \(Date().timeIntervalSince(started)) s")
    }

    /// Past its time limit a search is failed work (exit 1) told in one line, for `search`
    /// and for `play --search` alike.
    @Test func aSearchPastItsTimeLimitIsOneLineSayingHowToNarrowItAndExitOne() throws {
        for arguments in [["search", "harbour"], ["play", "--search", "harbour"]] {
            let result = try cli.run(arguments, environment: ["VOICEJOURNAL_SEARCH_SECONDS": "0.000000001"])
            #expect(result.status == 1, "\(arguments): exit \(result.status)")
            #expect(result.stderr.hasPrefix("voicejournal: the search took longer than 1e-09 s and was stopped: narrow it")
                    && result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try cli.run(["search", "harbour"], environment: ["VOICEJOURNAL_SEARCH_SECONDS": "5"]).status == 0)
    }

    @Test func queriesAtTheLimitsStillSearch() throws {
        let nested = String(repeating: "(harbour OR ", count: 29) + "NEAR(harbour dog)" + String(repeating: ")", count: 29)
        let many = Array(repeating: "harbour", count: 200).joined(separator: " ")
        for query in [nested, many, "NEAR(harbour dog, 100000)", "NEAR(harbour dog, 5)", "a* b* h* d* \"the f\"*"] {
            let started = Date()
            let result = try cli.run(["search", query, "--json"])
            #expect(result.status == 0, "\(result.stderr.prefix(300))")
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }
}
