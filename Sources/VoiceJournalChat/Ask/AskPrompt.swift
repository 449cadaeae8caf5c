import Foundation

/// The request `ask` sends: the question, the numbered passages it may answer from, the
/// numbers SQL counted for a counting question, and the conversation's earlier turns.
public enum AskPrompt {
    /// Kept with every turn, so an answer can be traced to the words that asked for it.
    public static let version = "ask-1"
    /// What the model is asked to say when the passages do not answer.
    public static let nothingSays = "Nothing in your journal says."
    /// The most an answer may take.
    public static let maxTokens = 400

    /// An earlier turn of the conversation, as it is sent again.
    public struct Turn: Sendable, Equatable {
        public var question: String
        public var answer: String
        public init(question: String, answer: String) {
            self.question = question
            self.answer = answer
        }
    }

    static let system = """
        You answer questions about the user's own journal. Answer only from the numbered \
        passages and the facts given with the question; they are the user's own words. Cite \
        every claim with the number of the passage it comes from in square brackets, like [2]. \
        If the passages and facts do not answer the question, answer exactly: \(nothingSays) \
        Answer in at most five sentences, speaking to the user as "you".
        """

    /// The request for `question` (the user's words as they asked), answered from `passages`
    /// and `facts`; `range` is the period the question named, shown as it was read.
    public static func request(question: String, passages: [AskPassage], facts: [String], range: String?,
                               history: [Turn] = [], zone: TimeZone = .current) -> ChatRequest {
        var messages: [ChatRequest.Message] = [.system(system)]
        for turn in history.suffix(3) {
            messages.append(.user(turn.question))
            messages.append(.assistant(turn.answer))
        }
        var text = ""
        if passages.isEmpty {
            text += "Passages: none were found.\n"
        } else {
            text += "Passages:\n"
            for passage in passages {
                text += "[\(passage.number)] (\(day(passage.date, zone: zone))) \(ChatText.oneLine(passage.text, limit: 1200))\n"
            }
        }
        if !facts.isEmpty { text += "\nFacts counted in the journal:\n" + facts.map { "- " + $0 }.joined(separator: "\n") + "\n" }
        if let range { text += "\nThe question is about \(range).\n" }
        text += "\nQuestion: \(ChatText.oneLine(question, limit: 1000))"
        messages.append(.user(text))
        return ChatRequest(messages: messages, maxTokens: maxTokens, temperature: 0.2)
    }

    static func day(_ date: Date, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return formatter.string(from: date)
    }
}

/// The citations of an answer, checked against the passages sent: a number in range is one
/// of them (they are numbered 1…n as sent); any other is taken out of the text and counted.
public struct AskCitations: Sendable, Equatable {
    /// The answer with the failed citations taken out.
    public var text: String
    /// The passage numbers cited that are passages sent, in the order first cited.
    public var cited: [Int]
    /// The numbers cited that are not (out of range), in the order met.
    public var removed: [Int]

    /// Checks `answer` against `passages`. A bracket of numbers (`[2]`, `[1, 3]`, `[2][4]`)
    /// keeps its good numbers and goes when none is good.
    public static func check(_ answer: String, passages: [AskPassage]) -> AskCitations {
        let valid = Set(passages.map(\.number))
        var cited: [Int] = [], removed: [Int] = []
        var text = ""
        var rest = Substring(answer)
        while let open = rest.firstIndex(of: "[") {
            text += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "]"), after.distance(from: after.startIndex, to: close) <= 40 else {
                text += "["
                rest = after
                continue
            }
            let inside = after[..<close]
            let parts = inside.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            // Digits only (an ASCII number too long for an Int is a bad citation, not words).
            let numbers = parts.compactMap { part in
                !part.isEmpty && part.allSatisfy({ $0.isASCII && $0.isNumber }) ? (Int(part) ?? Int.max) : nil
            }
            guard !parts.isEmpty, numbers.count == parts.count else {
                text += "[" + inside + "]" // not a citation: words in brackets stay
                rest = after[after.index(after: close)...]
                continue
            }
            let good = numbers.filter { valid.contains($0) }
            removed += numbers.filter { !valid.contains($0) }
            for number in good where !cited.contains(number) { cited.append(number) }
            if !good.isEmpty { text += "[" + good.map(String.init).joined(separator: ", ") + "]" }
            rest = after[after.index(after: close)...]
        }
        text += rest
        // A citation taken out can leave a space before the full stop.
        text = text.replacingOccurrences(of: " .", with: ".").replacingOccurrences(of: "  ", with: " ")
        return AskCitations(text: text.trimmingCharacters(in: .whitespacesAndNewlines), cited: cited, removed: removed)
    }
}
