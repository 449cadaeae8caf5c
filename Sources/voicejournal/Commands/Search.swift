import ArgumentParser
import Foundation
import Store
import Terminal

/// `voicejournal search QUERY`.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search entries and transcripts, best match first.",
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

    /// Private-use characters mark the matches while the table is laid out; they become bold
    /// once every cell is escaped and fitted (a transcript's own control characters never do).
    private static let boldMarks = SearchHighlight(open: "\u{E000}", close: "\u{E001}")

    func run() async throws {
        var filter = filters.filter
        filter.kind = kind
        let bold = !output.json && TerminalInfo.detect(fileDescriptor: STDOUT_FILENO).color
        let hits = try global.openStoreForReading().search(query.joined(separator: " "), filter: filter, person: person,
                                                           limit: limit, highlight: bold ? Self.boldMarks : .brackets)
        if output.json { return try printJSON(hits) }
        guard !hits.isEmpty else { return print("No matches.") }
        let table = Table(headers: ["ENTRY", "DATE", "JOURNAL", "MATCH"], rows: hits.map { hit in
            [Self.owner(of: hit), shortDate(hit.createdAt), hit.journal ?? "-",
             (hit.segmentStart.map { "@\(Clock.text($0, .position)) " } ?? "") + hit.snippet]
        }, maxColumnWidth: 80).render()
        guard bold else { return print(table) }
        // The match column is the last: a cut cell may leave bold open, so each line ends plain.
        print(table.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.replacingOccurrences(of: Self.boldMarks.open, with: ANSI.bold)
                .replacingOccurrences(of: Self.boldMarks.close, with: ANSI.reset) + ANSI.reset
        }.joined(separator: "\n"))
    }

    /// "#12", "assignment #3", or "recording #40" for a transcribed file in no journal.
    static func owner(of hit: SearchHit) -> String {
        if let entry = hit.entryId { return "#\(entry)" }
        if let assignment = hit.assignmentId { return "assignment #\(assignment)" }
        return "recording #\(hit.recordingId ?? 0)"
    }
}
