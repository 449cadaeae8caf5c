import ArgumentParser
import Pages
import Store
import Terminal

/// `voicejournal search QUERY`.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search entries and transcripts, best match first.",
        discussion: """
            Every word must appear; word forms match ("walking" finds "walked"). FTS5's query \
            language works too: "an exact phrase", prefix*, AND, OR, NOT (in capitals), ( ) and \
            NEAR(garden rain, 5). A match in a transcript shows where it is in the recording (@12:03).
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filters: EntryFilterOptions
    @Option(help: "Only answers given by this person (a name, an id or \"me\").") var person: String?
    @Option(help: "Only this kind: voice, text or gratitude.") var kind: EntryKind?
    @Argument(help: "Words to look for.") var query: [String]
    @Option(parsing: .unconditional, help: "At most this many results.") var limit = 20

    func validate() throws { try validateLimit(limit) }

    func run() async throws {
        let bold = output.color
        let hits = try global.openStoreForReading().search(query.joined(separator: " "), filter: filters.filter(kind: kind),
                                                           person: person, limit: limit, highlight: SearchResults.highlight(bold: bold))
        try output.show(hits) { SearchResults.text($0, bold: bold) }
    }
}
