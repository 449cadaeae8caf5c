import Foundation
import VoiceJournalStore

/// The messages and the schema a reflection on a week or a month is asked with. Changing
/// what they say changes `version`, which is stored with every reflection.
public enum PeriodPrompt {
    /// Stored with each period's reflection: which wording and schema it was asked with.
    public static let version = "reflect-period-1"

    /// About how many tokens the messages may take: the entries' words are cut to fit.
    public static let tokenBudget = 1500

    /// Bounds the schema sets (and the checks hold whatever the server enforced).
    static let narrativeLimit = 600, questionLimit = 160, encouragementLimit = 160
    /// (The prompt says "one to five" and "one or two" in words.)
    static let maxCited = 5, maxQuestions = 2

    /// The fields in the order a period's reflection is read.
    static let fieldOrder = ["narrative", "cited", "questions", "encouragement"]

    /// Characters of each entry's words tried in turn, most first, until the messages fit
    /// the budget; 0 lists an entry by its number, day, mood and theme alone.
    static let textLimits = [400, 280, 200, 140, 100, 70, 50, 35, 0]

    /// The request for `subject`: each entry's words as long as the messages stay within
    /// `budget` tokens (estimated with `ChatRequest.estimatedTokens`); with `texts` false none
    /// of its words, only the list of entries (for a model whose context is too small).
    public static func request(for subject: PeriodSubject, budget: Int = tokenBudget, texts: Bool = true,
                               calendar: Calendar = .current) -> ChatRequest {
        var request = ChatRequest(messages: [], schema: schema(for: subject), schemaName: "period_reflection", maxTokens: 600, temperature: 0)
        for limit in texts ? textLimits : [0] {
            request.messages = [.system(system), .user(user(for: subject, textLimit: limit, calendar: calendar))]
            if request.estimatedTokens <= budget { break }
        }
        return request
    }

    static let system = """
        You look back on a stretch of a person's private journal, kindly and briefly. \
        Answer with one JSON object only, no other text. The numbers were counted by the journal: \
        use them as they are, never change or invent one. Use only what the entries say. \
        Cite an entry by its number, as #12, and only an entry that is listed.
        """

    static func user(for subject: PeriodSubject, textLimit: Int, calendar: Calendar) -> String {
        var lines = ["The \(PeriodFacts.title(subject.period, journal: subject.journal, calendar: calendar))."]
        lines.append("Counted by the journal (facts, not for you to change):")
        lines += PeriodFacts.lines(subject.numbers, period: subject.period, calendar: calendar).map { "- \($0.label): \($0.value)" }
        lines.append("")
        lines.append(textLimit > 0 ? "The entries, by number, with their first words:" : "The entries, by number:")
        let day = PeriodFacts.format("EEE d MMM", calendar)
        for entry in subject.entries {
            var line = "#\(entry.id) \(day.string(from: entry.createdAt))"
            if let mood = entry.mood { line += ", \(mood.rawValue)" }
            if let theme = entry.theme { line += ", \(theme.rawValue)" }
            if textLimit > 0, !entry.text.isEmpty { line += ": " + ChatText.oneLine(entry.text, limit: textLimit) }
            lines.append(line)
        }
        lines.append("")
        lines.append("""
            Give: narrative (a few sentences on the \(subject.period.kind.rawValue), at most \(narrativeLimit) characters, \
            citing entries as #number), cited (the numbers of the entries it cites, one to five), \
            questions (one or two questions to the writer), encouragement (one line).
            """)
        return lines.joined(separator: "\n")
    }

    /// The answer's schema: every field required, nothing else allowed; the cited entries as
    /// an enum of the period's entry ids.
    public static func schema(for subject: PeriodSubject) -> JSONValue {
        func text(_ limit: Int) -> JSONValue { ["type": "string", "minLength": 1, "maxLength": .integer(limit)] }
        let properties: [String: JSONValue] = [
            "narrative": text(narrativeLimit),
            // An enum rather than a range: llama-cpp-python's grammar holds an enum and ignores a range.
            "cited": ["type": "array", "items": ["type": "integer", "enum": .array(subject.entryIds.map { .integer(Int($0)) })],
                      "minItems": 1, "maxItems": .integer(maxCited)],
            "questions": ["type": "array", "items": text(questionLimit), "minItems": 1, "maxItems": .integer(maxQuestions)],
            "encouragement": text(encouragementLimit),
        ]
        return ["type": "object", "properties": .object(properties), "required": .array(fieldOrder.map { .string($0) }),
                "additionalProperties": false]
    }
}
