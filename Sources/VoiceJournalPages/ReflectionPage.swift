import Foundation
import VoiceJournalChat
import VoiceJournalStore
import VoiceJournalTerminal

/// A stored reflection as `reflect` and `entry show` print it, or as `--json` writes it: its
/// fields, `status` with the reasons, the highlights with their sentence, text, times and the
/// command that plays each, and `usage` (tokens, seconds, cost).
package struct ReflectionPage: Encodable, Sendable {
    package var stored: StoredReflection
    /// The checked fields; nil for a failed reflection.
    package var reflection: Reflection?

    /// The page of `stored`, its claims checked again against `entry` as it is now: a
    /// reflection whose fields do not read, or whose highlights or people the entry no
    /// longer holds (corrected since, or brought in by an import), is shown as failed with why.
    package init(_ stored: StoredReflection, entry: EntryDetails?) {
        var stored = stored
        reflection = Reflector.decode(stored)
        if stored.status == .valid {
            let reasons = reflection.map { Self.stale($0, entry: entry) } ?? ["its stored fields do not read as a reflection"]
            if !reasons.isEmpty {
                stored.status = .failed
                stored.reasons = reasons
                reflection = nil
            }
        }
        self.stored = stored
    }

    /// What of `reflection` the entry does not hold now.
    static func stale(_ reflection: Reflection, entry: EntryDetails?) -> [String] {
        guard let entry else { return [] }
        let sentences = EntrySentences.of(entry)
        var reasons: [String] = []
        for highlight in reflection.highlights where !sentences.contains(where: { $0.number == highlight.sentence && $0.text == highlight.text }) {
            reasons.append("highlight \(highlight.sentence) is no longer that sentence of the entry (corrected since?)")
        }
        let text = sentences.map(\.text).joined(separator: " ")
        for person in reflection.people where !ReflectionCheck.names(person, in: text) {
            reasons.append("\(ChatText.oneLine(person, limit: 40)) is not named in the entry")
        }
        return reasons
    }

    enum CodingKeys: String, CodingKey {
        case id, entry, status, reasons, summary, mood, intensity, moodWithheld, themes, people, highlights, questions
        case insight, encouragement, model, endpoint, promptVersion, usage, createdAt
    }

    struct Highlight: Encodable {
        var sentence: Int
        var text: String
        var start: Double?
        var end: Double?
        var play: String?
    }

    struct Usage: Encodable {
        var requests: Int
        var inputTokens: Int
        var outputTokens: Int
        var seconds: Double
        /// Dollars; null when the endpoint's prices are not known.
        var cost: Double?

        init(of stored: StoredReflection) {
            (requests, inputTokens, outputTokens) = (stored.requests, stored.inputTokens, stored.outputTokens)
            (seconds, cost) = (stored.seconds, stored.cost)
        }
    }

    /// What a reflection (an entry's, a week's, a month's) took, as its heading shows it:
    /// `model at host, date, 3.1 s, 812 + 64 tokens, free`.
    static func usageText(_ stored: StoredReflection) -> String {
        "\(TerminalText.escaped(stored.model)) at \(TerminalText.escaped(stored.endpointHost)), \(LocalDate.short(stored.createdAt)), "
            + String(format: "%.1f s", stored.seconds) + ", \(stored.inputTokens) + \(stored.outputTokens) tokens, \(CostText.shown(stored.cost))"
    }

    /// The first line of a reflection that failed its checks, before its reasons.
    static func failedHeading(_ stored: StoredReflection) -> String {
        "Reflection failed (\(usageText(stored)); \(stored.requests) request\(stored.requests == 1 ? "" : "s")): "
            + "the model's answer broke these rules, so none of it is shown:"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stored.id, forKey: .id)
        try container.encode(stored.entryId, forKey: .entry)
        try container.encode(stored.status.rawValue, forKey: .status)
        try container.encode(stored.reasons, forKey: .reasons)
        try container.encode(reflection?.summary, forKey: .summary)
        try container.encode(reflection?.mood, forKey: .mood)
        try container.encode(reflection?.intensity, forKey: .intensity)
        try container.encode(reflection?.moodWithheld, forKey: .moodWithheld)
        try container.encode(reflection?.themes, forKey: .themes)
        try container.encode(reflection?.people, forKey: .people)
        try container.encode(highlights, forKey: .highlights)
        try container.encode(reflection?.questions, forKey: .questions)
        try container.encode(reflection?.insight, forKey: .insight)
        try container.encode(reflection?.encouragement, forKey: .encouragement)
        try container.encode(stored.model, forKey: .model)
        try container.encode(stored.endpointHost, forKey: .endpoint)
        try container.encode(stored.promptVersion, forKey: .promptVersion)
        try container.encode(Usage(of: stored), forKey: .usage)
        try container.encode(stored.createdAt, forKey: .createdAt)
    }

    var highlights: [Highlight]? {
        reflection?.highlights.map { highlight in
            Highlight(sentence: highlight.sentence, text: highlight.text, start: highlight.start, end: highlight.end,
                      play: highlight.start.flatMap { start in stored.entryId.map { PlayCommandText.entry($0, at: start) } })
        }
    }

    /// The reflection as lines: what the model said, marked as the model's; a failed one with
    /// its reasons and how to ask again. Every word from the model is escaped.
    package func lines() -> [String] {
        guard let reflection else {
            var lines = [Self.failedHeading(stored)]
            lines += stored.reasons.map { "  - " + TerminalText.escaped($0) }
            if let entry = stored.entryId { lines.append("Ask again: voicejournal reflect \(entry) --again") }
            return lines
        }
        var lines = ["Reflection (\(Self.usageText(stored))) — the model's words; highlights are the entry's own:"]
        lines.append("  Summary: " + TerminalText.escaped(reflection.summary))
        if let mood = reflection.mood {
            lines.append("  Mood: \(mood.rawValue), intensity \(reflection.intensity) of 5")
        } else if let withheld = reflection.moodWithheld {
            lines.append("  Mood: none suggested (\(TerminalText.escaped(withheld)))")
        }
        if !reflection.themes.isEmpty { lines.append("  Themes: " + reflection.themes.map(\.rawValue).joined(separator: ", ")) }
        if !reflection.people.isEmpty { lines.append("  People: " + reflection.people.map(TerminalText.escaped).joined(separator: ", ")) }
        for highlight in highlights ?? [] {
            let when = highlight.start.map { " [\(Clock.text($0, .position))]" } ?? ""
            lines.append("  Highlight \(highlight.sentence)\(when): \(TerminalText.escaped(highlight.text))")
            if let play = highlight.play { lines.append("    " + play) }
        }
        for question in reflection.questions { lines.append("  Question: " + TerminalText.escaped(question)) }
        lines.append("  Insight: " + TerminalText.escaped(reflection.insight))
        lines.append("  Encouragement: " + TerminalText.escaped(reflection.encouragement))
        return lines
    }
}
