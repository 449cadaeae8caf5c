import Foundation
import VoiceJournalChat
import VoiceJournalStore
import VoiceJournalTerminal

/// A turn of `ask` as shown: after the streamed answer, the passages it cited — entry, date,
/// time and the command that plays each — the citations taken out, whether it is whole, and
/// its usage; `--json` the same as one document.
package struct AskPage: Encodable, Sendable {
    let turn: AskTurn
    /// The passages sent, with their words (read again for a turn shown later).
    let passages: [AskPassage]
    /// Said after the sources (how the passages were found, when it was not as asked).
    var notes: [String] = []

    package init(turn: AskTurn, passages: [AskPassage]) {
        self.turn = turn
        self.passages = passages
    }

    /// A cited passage as shown.
    struct Citation: Encodable {
        let number: Int
        /// The entry it is from, or the assignment whose answer it is (`ask --person`).
        let entryId: Int64?
        let assignmentId: Int64?
        let date: Date
        let start: Double?
        let end: Double?
        let text: String
        /// The command that plays it (a recording), else the one that shows the entry.
        let command: String
    }

    var citations: [Citation] {
        turn.cited.compactMap { number in passages.first { $0.number == number } }.map { passage in
            let command: String
            if let assignment = passage.assignmentId {
                command = passage.start.map { PlayCommandText.assignment(assignment, at: max(0, $0 - 1)) }
                    ?? "voicejournal assignment show \(assignment)"
            } else {
                let entry = passage.entryId ?? 0
                command = passage.start.map { PlayCommandText.entry(entry, at: max(0, $0 - 1)) } ?? "voicejournal entry show \(entry)"
            }
            return Citation(number: passage.number, entryId: passage.entryId, assignmentId: passage.assignmentId, date: passage.date,
                            start: passage.start, end: passage.end, text: passage.text, command: command)
        }
    }

    private enum Keys: String, CodingKey {
        case conversation, turn, question, range, answer, complete, incomplete, citations, removedCitations, facts, passagesSent, passages
        case model, endpoint, promptVersion, usage, createdAt
    }

    private struct Sent: Encodable {
        let number: Int, entryId: Int64?, assignmentId: Int64?, start: Double?, end: Double?, text: String?
    }

    private struct Usage: Encodable {
        let inputTokens: Int, outputTokens: Int, seconds: Double, firstTextSeconds: Double?, cost: Double?
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(turn.conversationId, forKey: .conversation)
        try container.encode(turn.id, forKey: .turn)
        try container.encode(turn.question, forKey: .question)
        try container.encodeIfPresent(turn.rangeText, forKey: .range)
        try container.encode(turn.answer, forKey: .answer)
        try container.encode(turn.incomplete == nil, forKey: .complete)
        try container.encodeIfPresent(turn.incomplete, forKey: .incomplete)
        try container.encode(citations, forKey: .citations)
        try container.encode(turn.removed, forKey: .removedCitations)
        try container.encode(turn.facts, forKey: .facts)
        try container.encode(turn.passages.count, forKey: .passagesSent)
        // Which passages were sent, by entry and time (and their words when this run read them).
        try container.encode(turn.passages.map { ref in
            Sent(number: ref.number, entryId: ref.entryId, assignmentId: ref.assignmentId, start: ref.start, end: ref.end,
                 text: passages.first { $0.number == ref.number }.flatMap { $0.text.isEmpty ? nil : $0.text })
        }, forKey: .passages)
        try container.encode(turn.model, forKey: .model)
        try container.encode(turn.endpointHost, forKey: .endpoint)
        try container.encode(turn.promptVersion, forKey: .promptVersion)
        try container.encode(Usage(inputTokens: turn.inputTokens, outputTokens: turn.outputTokens, seconds: turn.seconds,
                                   firstTextSeconds: turn.firstTextSeconds, cost: turn.cost), forKey: .usage)
        try container.encode(turn.createdAt, forKey: .createdAt)
    }

    /// What follows the streamed answer: the sources, what was taken out, the usage.
    package func linesAfterStream() -> [String] {
        var lines = [""]
        if let incomplete = turn.incomplete { lines.append("(The answer stopped before it was complete: \(TerminalText.escaped(incomplete)). What arrived is kept.)") }
        if !citations.isEmpty {
            lines.append("Sources:")
            for citation in citations {
                let at = citation.start.map { " @" + Clock.text($0.rounded(.down), .position) } ?? ""
                let source = citation.assignmentId.map { "assignment \($0)" } ?? "#\(citation.entryId ?? 0)"
                lines.append("  [\(citation.number)] \(source) \(LocalDate.short(citation.date))\(at) → \(citation.command)")
            }
        }
        if !turn.removed.isEmpty {
            let numbers = turn.removed.map { "[\($0)]" }.joined(separator: ", ")
            lines.append("\(turn.removed.count) citation\(turn.removed.count == 1 ? "" : "s") taken out: \(numbers) named no passage sent.")
        }
        lines += notes
        lines.append(usageLine)
        return lines
    }

    /// `Asked SmolLM2-135M-Instruct at 127.0.0.1:8179: 3.1 s (first words 0.4 s), 812 + 64 tokens, free; conversation 3 (ask --continue)`.
    var usageLine: String {
        let first = turn.firstTextSeconds.map { String(format: " (first words %.1f s)", $0) } ?? ""
        return "Asked \(TerminalText.escaped(turn.model)) at \(turn.endpointHost): " + String(format: "%.1f s", turn.seconds) + first
            + ", \(turn.inputTokens) + \(turn.outputTokens) tokens, \(CostText.shown(turn.cost)); conversation \(turn.conversationId) (ask --continue)"
    }
}
