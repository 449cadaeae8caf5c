import ArgumentParser
import Store
import Terminal

/// `voicejournal search QUERY`.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search entries and transcripts, best match first.",
        discussion: "Every word must appear; word forms match (\"walking\" finds \"walked\").")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filters: EntryFilterOptions
    @Argument(help: "Words to look for.") var query: [String]
    @Option(parsing: .unconditional, help: "At most this many results.") var limit = 20

    func validate() throws { try validateLimit(limit) }

    func run() async throws {
        let hits = try global.openStoreForReading().search(query.joined(separator: " "), filter: filters.filter, limit: limit)
        if output.json { return try printJSON(hits) }
        guard !hits.isEmpty else { return print("No matches.") }
        print(Table(headers: ["ENTRY", "DATE", "JOURNAL", "MATCH"], rows: hits.map { hit in
            [hit.entryId.map { "#\($0)" } ?? "assignment #\(hit.assignmentId ?? 0)",
             shortDate(hit.createdAt), hit.journal ?? "-", hit.snippet]
        }, maxColumnWidth: 80).render())
    }
}
