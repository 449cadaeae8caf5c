import Foundation
import VoiceJournalStore

/// A model's answer checked against the schema (whatever the server claims to enforce), the
/// entry and the lists: sentence numbers in range, a person only if the entry names them, a
/// mood or theme only from the lists. Nothing unchecked becomes a `Reflection`.
public enum ReflectionCheck {
    /// The outcome: the reflection, or every reason it is not one.
    public enum Outcome: Sendable, Equatable {
        case valid(Reflection)
        case invalid([String])
    }

    /// Checks `answer` (its text and how it finished) for `subject`.
    public static func check(_ answer: ChatAnswer, for subject: ReflectionSubject) -> Outcome {
        if answer.finishReason == "length" {
            return .invalid(["the answer was cut off at the token limit before it ended"])
        }
        return check(content: answer.content, for: subject)
    }

    /// Checks the text of an answer.
    public static func check(content: String, for subject: ReflectionSubject) -> Outcome {
        let fields: [String: JSONValue]
        switch object(content) {
        case .success(let object): fields = object
        case .failure(let problem): return .invalid([problem.reason])
        }
        var reasons = fieldReasons(fields, expected: ReflectionPrompt.fieldOrder)

        let summary = text(fields["summary"], "summary", limit: ReflectionPrompt.summaryLimit, &reasons)
        var mood: Mood?
        if let value = fields["mood"] {
            if let name = value.stringValue, let known = Mood(rawValue: name) { mood = known } else {
                reasons.append("mood \(shown(value)) is not one of \(Mood.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        var intensity = 0
        if let value = fields["intensity"] {
            if let number = value.integerValue, (1...5).contains(number) { intensity = number } else {
                reasons.append("intensity \(shown(value)) is not a whole number from 1 to 5")
            }
        }
        let themes: [Theme] = list(fields["themes"], "themes", max: ReflectionPrompt.maxThemes, &reasons) { value in
            guard let theme = value.stringValue.flatMap(Theme.init(rawValue:)) else {
                return .failure("theme \(shown(value)) is not one of \(Theme.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .success(theme)
        }
        let people: [String] = list(fields["people"], "people", max: subject.people.count, &reasons) { value in
            guard let name = value.stringValue, subject.people.contains(name) else {
                return .failure("\(shown(value)) is not one of the journal's people")
            }
            guard names(name, in: subject.text) else { return .failure("\(name) is not named in the entry") }
            return .success(name)
        }
        let highlights: [Reflection.Highlight] = list(fields["highlights"], "highlights", max: ReflectionPrompt.maxHighlights, &reasons) { value in
            guard let number = value.integerValue, let sentence = subject.sentences.first(where: { $0.number == number }) else {
                // A part of a long entry is numbered as the entry is: its range, not 1 to its count.
                let range = "\(subject.sentences.first?.number ?? 1) to \(subject.sentences.last?.number ?? 0)"
                return .failure("highlight \(shown(value)) is not a sentence number from \(range)")
            }
            return .success(Reflection.Highlight(sentence: number, text: sentence.text, start: sentence.start, end: sentence.end))
        }
        let questions: [String] = list(fields["questions"], "questions", max: ReflectionPrompt.maxQuestions, &reasons) { value in
            var local: [String] = []
            let question = text(value, "a question", limit: ReflectionPrompt.questionLimit, &local)
            return local.isEmpty ? .success(question) : .failure(ItemProblem(reason: local[0]))
        }
        if fields["questions"] != nil, questions.isEmpty, !reasons.contains(where: { $0.hasPrefix("a question") || $0.hasPrefix("questions") }) {
            reasons.append("questions is empty: give one to three")
        }
        let insight = text(fields["insight"], "insight", limit: ReflectionPrompt.insightLimit, &reasons)
        let encouragement = text(fields["encouragement"], "encouragement", limit: ReflectionPrompt.encouragementLimit, &reasons)
        guard reasons.isEmpty, let mood else { return .invalid(reasons) }
        let withheld = MoodValence.contradiction(mood, subject.text)
        return .valid(Reflection(summary: summary, mood: withheld == nil ? mood : nil, intensity: intensity, moodWithheld: withheld,
                                 themes: themes, people: people, highlights: highlights, questions: questions,
                                 insight: insight, encouragement: encouragement))
    }

    /// The answer's one JSON object, or why it is not one.
    static func object(_ content: String) -> Result<[String: JSONValue], ItemProblem> {
        let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
        // A raw line break or tab inside a string is not JSON, but llama-cpp-python's grammar
        // lets a model write one; as a space it changes nothing (between tokens it is one).
        let spaced = String(String.UnicodeScalarView(trimmed.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
        guard let json = JSONValue.parse(Data(spaced.utf8)) else {
            let start = ChatText.oneLine(String(trimmed.prefix(30)), limit: 30)
            return .failure(trimmed.hasPrefix("```") ? "the answer is not JSON alone: it is inside a code fence (starts \(start.debugDescription))"
                                                     : "the answer is not JSON (starts \(start.debugDescription))")
        }
        guard let fields = json.objectValue else { return .failure("the answer is not a JSON object") }
        return .success(fields)
    }

    /// Fields the answer has and should not, and those it lacks.
    static func fieldReasons(_ fields: [String: JSONValue], expected: [String]) -> [String] {
        var reasons: [String] = []
        for key in fields.keys.sorted() where !expected.contains(key) {
            reasons.append("\(ChatText.oneLine(key, limit: 40).debugDescription) is not a field of a reflection")
        }
        for key in expected where fields[key] == nil { reasons.append("\(key) is missing") }
        return reasons
    }

    /// Whether `name` is in `text` as a word of its own (any case; "Anna" is not in "Annabel").
    public static func names(_ name: String, in text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "'" }.map(String.init)
        let nameWords = name.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "'" }.map(String.init)
        guard !nameWords.isEmpty, nameWords.count <= words.count else { return false }
        let possessive = words.map { $0.hasSuffix("'s") ? String($0.dropLast(2)) : $0 }
        for start in 0...(words.count - nameWords.count) {
            let window = start..<(start + nameWords.count)
            if Array(words[window]) == nameWords || Array(possessive[window]) == nameWords { return true }
        }
        return false
    }

    static func text(_ value: JSONValue?, _ name: String, limit: Int, _ reasons: inout [String]) -> String {
        guard let value else { return "" }
        guard let raw = value.stringValue else {
            reasons.append("\(name) is \(shown(value)), not text")
            return ""
        }
        let line = ChatText.oneLine(raw, limit: Int.max)
        if line.isEmpty { reasons.append("\(name) is empty") }
        if line.count > limit { reasons.append("\(name) is \(line.count) characters long (at most \(limit))") }
        return line
    }

    static func list<T: Equatable>(_ value: JSONValue?, _ name: String, max: Int, _ reasons: inout [String],
                                           _ item: (JSONValue) -> Result<T, ItemProblem>) -> [T] {
        guard let value else { return [] }
        guard let items = value.arrayValue else {
            reasons.append("\(name) is \(shown(value)), not a list")
            return []
        }
        if items.count > max { reasons.append("\(name) has \(items.count) items (at most \(max))") }
        var kept: [T] = []
        for element in items {
            switch item(element) {
            case .success(let result):
                if kept.contains(result) { reasons.append("\(name) repeats \(shown(element))") } else { kept.append(result) }
            case .failure(let problem):
                reasons.append(problem.reason)
            }
        }
        return kept
    }

    struct ItemProblem: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
        let reason: String
        init(reason: String) { self.reason = reason }
        init(stringLiteral value: String) { reason = value }
        init(stringInterpolation: DefaultStringInterpolation) { reason = String(stringInterpolation: stringInterpolation) }
    }

    /// A value the model gave, as it may be quoted in a reason: one line, short.
    static func shown(_ value: JSONValue) -> String {
        ChatText.oneLine(value.compactText, limit: 40)
    }
}
