import Foundation
import VoiceJournalStore

/// A reflection on a week or a month as checked here: the model's narrative, the entries it
/// cites (each an entry of the period), its questions and a line of encouragement.
public struct PeriodReflection: Sendable, Equatable, Codable {
    public var narrative: String
    public var cited: [Int64]
    public var questions: [String]
    public var encouragement: String

    public init(narrative: String, cited: [Int64], questions: [String], encouragement: String) {
        self.narrative = narrative
        self.cited = cited
        self.questions = questions
        self.encouragement = encouragement
    }
}

/// What a week's or a month's reflection keeps in its fields: the journal it covered (nil:
/// all), the period, the numbers as they were shown, and the checked reflection (nil when it
/// failed). `journal` is what finds it again: the reflection table has no column for it.
public struct PeriodRecord: Sendable, Equatable, Codable {
    public var journal: String?
    public var period: JournalPeriod
    public var numbers: PeriodNumbers
    public var reflection: PeriodReflection?

    public init(journal: String?, period: JournalPeriod, numbers: PeriodNumbers, reflection: PeriodReflection?) {
        self.journal = journal
        self.period = period
        self.numbers = numbers
        self.reflection = reflection
    }

    /// As stored: JSON, keys sorted, dates in ISO 8601.
    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The record a stored reflection on a period holds; nil when its fields do not read as one.
    public static func decode(_ stored: StoredReflection) -> PeriodRecord? {
        guard stored.entryId == nil, let fields = stored.fields else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(PeriodRecord.self, from: Data(fields.utf8))
    }
}

/// A model's answer on a period checked against the schema (whatever the server claims to
/// enforce) and the period: every entry it cites, in the list or as #number in its narrative,
/// is an entry of the period; its texts are single lines within their bounds.
public enum PeriodCheck {
    /// The outcome: the reflection, or every reason it is not one.
    public enum Outcome: Sendable, Equatable {
        case valid(PeriodReflection)
        case invalid([String])
    }

    /// Checks `answer` (its text and how it finished) for `subject`.
    public static func check(_ answer: ChatAnswer, for subject: PeriodSubject) -> Outcome {
        if answer.finishReason == "length" {
            return .invalid(["the answer was cut off at the token limit before it ended"])
        }
        return check(content: answer.content, for: subject)
    }

    /// Checks the text of an answer.
    public static func check(content: String, for subject: PeriodSubject) -> Outcome {
        let fields: [String: JSONValue]
        switch ReflectionCheck.object(content) {
        case .success(let object): fields = object
        case .failure(let problem): return .invalid([problem.reason])
        }
        var reasons = ReflectionCheck.fieldReasons(fields, expected: PeriodPrompt.fieldOrder)
        let ids = Set(subject.entryIds)
        let what = "an entry of this \(subject.period.kind.rawValue)"
        let narrative = ReflectionCheck.text(fields["narrative"], "narrative", limit: PeriodPrompt.narrativeLimit, &reasons)
        for match in narrative.matches(of: /#([0-9]+)/) {
            if let id = Int64(match.1), ids.contains(id) { continue }
            let reason = "the narrative cites #\(match.1.prefix(12)), which is not \(what)"
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        let cited: [Int64] = ReflectionCheck.list(fields["cited"], "cited", max: PeriodPrompt.maxCited, &reasons) { value in
            guard let number = value.integerValue else { return .failure("cited \(ReflectionCheck.shown(value)) is not an entry's number") }
            guard ids.contains(Int64(number)) else { return .failure("cited entry \(number) is not \(what)") }
            return .success(Int64(number))
        }
        if fields["cited"]?.arrayValue?.isEmpty == true { reasons.append("cited is empty: cite one to \(PeriodPrompt.maxCited) of its entries") }
        let questions: [String] = ReflectionCheck.list(fields["questions"], "questions", max: PeriodPrompt.maxQuestions, &reasons) { value in
            var local: [String] = []
            let question = ReflectionCheck.text(value, "a question", limit: PeriodPrompt.questionLimit, &local)
            return local.isEmpty ? .success(question) : .failure(ReflectionCheck.ItemProblem(reason: local[0]))
        }
        if fields["questions"]?.arrayValue?.isEmpty == true { reasons.append("questions is empty: give one or two") }
        let encouragement = ReflectionCheck.text(fields["encouragement"], "encouragement", limit: PeriodPrompt.encouragementLimit, &reasons)
        guard reasons.isEmpty else { return .invalid(reasons) }
        return .valid(PeriodReflection(narrative: narrative, cited: cited, questions: questions, encouragement: encouragement))
    }
}
