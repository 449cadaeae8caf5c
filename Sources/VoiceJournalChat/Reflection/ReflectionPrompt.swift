import Foundation
import VoiceJournalStore

/// The messages and the schema a reflection is asked with. Changing what they say changes
/// `version`, which is stored with every reflection.
public enum ReflectionPrompt {
    /// Stored with each reflection: which wording and schema it was asked with.
    public static let version = "reflect-1"

    /// Bounds the schema sets (and the checks hold whatever the server enforced).
    /// (A string's bound is also what makes a small local model close the string: llama.cpp's
    /// grammar spells it out character by character, so the bounds are kept short.)
    static let summaryLimit = 400, questionLimit = 160, insightLimit = 240, encouragementLimit = 160
    static let maxHighlights = 3, maxThemes = 3, maxQuestions = 3

    /// The request for `subject`.
    public static func request(for subject: ReflectionSubject) -> ChatRequest {
        ChatRequest(messages: [.system(system), .user(user(for: subject))], schema: schema(for: subject),
                    schemaName: "reflection", maxTokens: 700, temperature: 0)
    }

    /// `request` asked again after `answer` broke the rules in `reasons`: the conversation
    /// so far, the answer as it came (cut short), and the reasons.
    public static func repair(_ request: ChatRequest, answer: String, reasons: [String]) -> ChatRequest {
        var repaired = request
        repaired.messages.append(.assistant(String(answer.prefix(4000))))
        repaired.messages.append(.user("That answer broke these rules:\n" + reasons.map { "- \($0)" }.joined(separator: "\n")
            + "\nAnswer again with one JSON object only, following the schema and the rules."))
        return repaired
    }

    static let system = """
        You reflect on one entry of a person's private journal, kindly and briefly. \
        Answer with one JSON object only, no other text. Use only what the entry says. \
        To point at something the entry says, give its sentence number; never quote or invent words. \
        Name a person only if the entry names them.
        """

    static func user(for subject: ReflectionSubject) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        var lines = ["Journal entry \(subject.entryId) (\(subject.journal), \(formatter.string(from: subject.createdAt))), sentence by sentence:"]
        lines += subject.sentences.map { "\($0.number). \($0.text)" }
        lines.append("")
        lines.append("Moods to choose from: " + Mood.allCases.map(\.rawValue).joined(separator: ", "))
        lines.append("Themes to choose from: " + Theme.allCases.map(\.rawValue).joined(separator: ", "))
        lines.append(subject.people.isEmpty ? "People in this journal: none" : "People in this journal: " + subject.people.joined(separator: ", "))
        if !subject.numbers.isEmpty {
            lines.append("The journal so far (counted, not for you to change):")
            lines += subject.numbers.map { "- \($0)" }
        }
        lines.append("")
        lines.append("""
            Give: summary (two or three sentences), mood and intensity (1 to 5), themes, people the entry names, \
            highlights (up to \(maxHighlights) sentence numbers), questions (one to \(maxQuestions) follow-up questions to the writer), \
            insight (one sentence on a pattern), encouragement (one line).
            """)
        return lines.joined(separator: "\n")
    }

    /// The answer's schema: every field required, nothing else allowed; moods, themes and
    /// people as enums, highlights as sentence numbers in range.
    public static func schema(for subject: ReflectionSubject) -> JSONValue {
        func text(_ limit: Int) -> JSONValue { ["type": "string", "minLength": 1, "maxLength": .integer(limit)] }
        let people: JSONValue = subject.people.isEmpty
            ? ["type": "array", "items": ["type": "string"], "maxItems": 0]
            : ["type": "array", "items": ["type": "string", "enum": .array(subject.people.map { .string($0) })], "maxItems": .integer(subject.people.count)]
        let properties: [String: JSONValue] = [
            "summary": text(summaryLimit),
            "mood": ["type": "string", "enum": .array(Mood.allCases.map { .string($0.rawValue) })],
            // Enums rather than minimum/maximum: llama-cpp-python's grammar holds an enum and
            // ignores a range (it let through intensity 20 and sentence numbers past the end).
            "intensity": ["type": "integer", "enum": [1, 2, 3, 4, 5]],
            "themes": ["type": "array", "items": ["type": "string", "enum": .array(Theme.allCases.map { .string($0.rawValue) })],
                       "maxItems": .integer(maxThemes)],
            "people": people,
            "highlights": ["type": "array", "items": ["type": "integer", "enum": .array(subject.sentences.map { .integer($0.number) })],
                           "maxItems": .integer(maxHighlights)],
            "questions": ["type": "array", "items": text(questionLimit), "minItems": 1, "maxItems": .integer(maxQuestions)],
            "insight": text(insightLimit),
            "encouragement": text(encouragementLimit),
        ]
        return ["type": "object", "properties": .object(properties), "required": .array(fieldOrder.map { .string($0) }),
                "additionalProperties": false]
    }

    /// The fields in the order a reflection is read.
    static let fieldOrder = ["summary", "mood", "intensity", "themes", "people", "highlights", "questions", "insight", "encouragement"]
}
