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

    /// Stored with a reflection made in parts (an entry longer than the model's context):
    /// each part asked as `version` asks, then the whole from the parts' reflections.
    public static let partsVersion = "reflect-1-parts-1"

    /// The request for `subject`.
    public static func request(for subject: ReflectionSubject) -> ChatRequest {
        request(for: subject, part: false)
    }

    /// The request for `subject`; `part`: its sentences are a stretch of a longer entry.
    static func request(for subject: ReflectionSubject, part: Bool) -> ChatRequest {
        ChatRequest(messages: [.system(system), .user(user(for: subject, part: part))], schema: schema(for: subject),
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

    static func user(for subject: ReflectionSubject, part: Bool = false) -> String {
        let entry = "entry \(subject.entryId) (\(subject.journal), \(date(subject.createdAt)))"
        var lines = [part ? "Sentences \(stretch(subject)) of journal \(entry), a part of an entry too long to read at once, sentence by sentence:"
                          : "Journal \(entry), sentence by sentence:"]
        lines += subject.sentences.map { sentenceLine($0) }
        lines.append("")
        lines += lists(people: "People in this journal", subject.people, numbers: subject.numbers)
        lines.append("")
        lines.append("""
            Give: summary (two or three sentences\(part ? " on these sentences" : "")), mood and intensity (1 to 5), themes, people the entry names, \
            highlights (up to \(maxHighlights) sentence numbers), questions (one to \(maxQuestions) follow-up questions to the writer), \
            insight (one sentence on a pattern), encouragement (one line).
            """)
        return lines.joined(separator: "\n")
    }

    /// A sentence as the model reads it: its number in the entry, then its words.
    static func sentenceLine(_ sentence: EntrySentence) -> String { "\(sentence.number). \(sentence.text)" }

    /// The lists an answer chooses from, and the numbers about the journal.
    private static func lists(people label: String, _ people: [String], numbers: [String]) -> [String] {
        var lines = ["Moods to choose from: " + Mood.allCases.map(\.rawValue).joined(separator: ", "),
                     "Themes to choose from: " + Theme.allCases.map(\.rawValue).joined(separator: ", "),
                     "\(label): " + (people.isEmpty ? "none" : people.joined(separator: ", "))]
        if !numbers.isEmpty {
            lines.append("The journal so far (counted, not for you to change):")
            lines += numbers.map { "- \($0)" }
        }
        return lines
    }

    private static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return formatter.string(from: date)
    }

    private static func stretch(_ subject: ReflectionSubject) -> String {
        "\(subject.sentences.first?.number ?? 0) to \(subject.sentences.last?.number ?? 0)"
    }

    /// The request for the whole of `subject` (an entry, or a stretch of one) from the checked
    /// reflections on its parts, in order: the model gets what the parts found — summaries,
    /// moods, themes, people, the highlighted sentences — never the transcript. It may name
    /// only the journal's people the stretch names, and highlight only the parts' highlights.
    static func whole(of parts: [ReflectionParts.Digest], subject: ReflectionSubject, stretch isStretch: Bool) -> ChatRequest {
        let entry = "entry \(subject.entryId) (\(subject.journal), \(date(subject.createdAt)))"
        let named = subject.people.filter { ReflectionCheck.names($0, in: subject.text) }
        let opening = isStretch ? "Sentences \(stretch(subject)) of journal \(entry) are too long to read at once, so they were"
                                : "Journal \(entry) is too long to read at once, so it was"
        var lines = [opening + " read in \(parts.count) parts. Below is what was found in each, "
            + "in order (checked against the entry). Reflect on the whole.", ""]
        for part in parts { lines += partLines(part) + [""] }
        lines += lists(people: "People the entry names", named, numbers: subject.numbers)
        lines.append("")
        lines.append("""
            Give: summary of the whole (two or three sentences), mood and intensity (1 to 5), themes, people the entry names, \
            highlights (up to \(maxHighlights) sentence numbers, from the parts' highlights), questions (one to \(maxQuestions) \
            follow-up questions to the writer), insight (one sentence on a pattern), encouragement (one line).
            """)
        let highlights = parts.flatMap { $0.reflection.highlights.map(\.sentence) }
        return ChatRequest(messages: [.system(system), .user(lines.joined(separator: "\n"))],
                           schema: schema(people: named, sentences: highlights), schemaName: "reflection", maxTokens: 700, temperature: 0)
    }

    /// What the request as a whole says of one part: its stretch, and its reflection's fields
    /// (a highlight as its number and the entry's own words, cut short).
    static func partLines(_ part: ReflectionParts.Digest) -> [String] {
        let reflection = part.reflection
        let mood = reflection.mood.map { "\($0.rawValue), intensity \(reflection.intensity)" } ?? "none suggested"
        var lines = ["Sentences \(part.first) to \(part.last):", "Summary: \(reflection.summary)",
                     "Mood: \(mood). Themes: \(reflection.themes.isEmpty ? "none" : reflection.themes.map(\.rawValue).joined(separator: ", ")). "
                        + "People: \(reflection.people.isEmpty ? "none" : reflection.people.joined(separator: ", "))."]
        for highlight in reflection.highlights {
            lines.append("Highlight \(highlight.sentence): \(ChatText.oneLine(highlight.text, limit: 160))")
        }
        return lines
    }

    /// The answer's schema: every field required, nothing else allowed; moods, themes and
    /// people as enums, highlights as sentence numbers in range.
    public static func schema(for subject: ReflectionSubject) -> JSONValue {
        schema(people: subject.people, sentences: subject.sentences.map(\.number))
    }

    /// The schema with `people` to choose from and `sentences` to highlight (none: an empty list).
    static func schema(people names: [String], sentences: [Int]) -> JSONValue {
        func text(_ limit: Int) -> JSONValue { ["type": "string", "minLength": 1, "maxLength": .integer(limit)] }
        let people: JSONValue = names.isEmpty
            ? ["type": "array", "items": ["type": "string"], "maxItems": 0]
            : ["type": "array", "items": ["type": "string", "enum": .array(names.map { .string($0) })], "maxItems": .integer(names.count)]
        let highlights: JSONValue = sentences.isEmpty
            ? ["type": "array", "items": ["type": "integer"], "maxItems": 0]
            : ["type": "array", "items": ["type": "integer", "enum": .array(sentences.map { .integer($0) })], "maxItems": .integer(maxHighlights)]
        let properties: [String: JSONValue] = [
            "summary": text(summaryLimit),
            "mood": ["type": "string", "enum": .array(Mood.allCases.map { .string($0.rawValue) })],
            // Enums rather than minimum/maximum: llama-cpp-python's grammar holds an enum and
            // ignores a range (it let through intensity 20 and sentence numbers past the end).
            "intensity": ["type": "integer", "enum": [1, 2, 3, 4, 5]],
            "themes": ["type": "array", "items": ["type": "string", "enum": .array(Theme.allCases.map { .string($0.rawValue) })],
                       "maxItems": .integer(maxThemes)],
            "people": people,
            "highlights": highlights,
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
