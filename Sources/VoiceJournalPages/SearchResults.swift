import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// What `search` prints: one row per hit, best first, where it is (`#12`, `assignment #3`),
/// when, in which journal, and the words around the match (`@12:03` in a recording).
package enum SearchResults {
    /// Private-use characters mark the matches while the table is laid out; they become bold
    /// once every cell is escaped and fitted (a transcript's own control characters never do).
    static let boldMarks = SearchHighlight(open: "\u{E000}", close: "\u{E001}")

    /// How the search should mark matches for `text(_:bold:)`: brackets, or marks that become bold.
    package static func highlight(bold: Bool) -> SearchHighlight {
        bold ? boldMarks : .brackets
    }

    /// The hits as a table (searched with `highlight(bold:)`), or "No matches.". Under each
    /// hit in a recording, in the match's column, the command that plays it from a second
    /// before (`PlayCommandText.hit`): a line of its own keeps it whole, ready to copy, and
    /// the table no wider.
    package static func text(_ hits: [SearchHit], bold: Bool) -> String {
        guard !hits.isEmpty else { return "No matches." }
        let table = Table(headers: ["ENTRY", "DATE", "JOURNAL", "MATCH"], rows: hits.map { hit in
            [owner(of: hit), LocalDate.short(hit.createdAt), hit.journal ?? "-",
             (hit.segmentStart.map { "@\(Clock.text($0, .position)) " } ?? "") + hit.snippet]
        }, maxColumnWidth: 80).render()
        let rendered = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = rendered.first, rendered.count == hits.count + 1 else { return table }
        let indent = String(repeating: " ", count: header.count - "MATCH".count)
        var lines = [header]
        for (hit, row) in zip(hits, rendered.dropFirst()) {
            lines.append(row)
            if let command = PlayCommandText.hit(hit) { lines.append(indent + command) }
        }
        guard bold else { return lines.joined(separator: "\n") }
        // The match column is the last: a cut cell may leave bold open, so each line ends plain.
        return lines.map { line in
            line.replacingOccurrences(of: boldMarks.open, with: ANSI.bold)
                .replacingOccurrences(of: boldMarks.close, with: ANSI.reset) + ANSI.reset
        }.joined(separator: "\n")
    }

    /// The hits as `search --json` prints them: each hit's keys and `play`, the command that
    /// plays it (null for a hit in typed text).
    package static func rows(_ hits: [SearchHit]) -> [Row] {
        hits.map { Row(hit: $0, play: PlayCommandText.hit($0)) }
    }

    /// One hit of `search --json`.
    package struct Row: Encodable, Sendable {
        package var hit: SearchHit
        package var play: String?

        enum CodingKeys: String, CodingKey { case play }

        package func encode(to encoder: any Encoder) throws {
            try hit.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(play, forKey: .play)
        }
    }

    /// "#12", "assignment #3", or "recording #40" for a transcribed file in no journal.
    package static func owner(of hit: SearchHit) -> String {
        if let entry = hit.entryId { return "#\(entry)" }
        if let assignment = hit.assignmentId { return "assignment #\(assignment)" }
        return hit.recordingId.map { "recording #\($0)" } ?? "a recording"
    }
}
