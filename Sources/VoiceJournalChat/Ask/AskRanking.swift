import Foundation

/// How well one sentence may answer a question, by its words alone: the query's terms it
/// holds, each weighed by how rare it is in the journal (a word in three entries counts far
/// more than one in most of them), and whether it holds the kind of thing the question asks
/// for — a time for "when", a place for "where", a length of time for "how long", words
/// someone said for "what did the vet tell me". FTS5 ranks whole entries, and when the one
/// word a question shares with its answer is also in other entries ("Where did I put my
/// glasses?" — "two glasses of wine"), nothing in that ranking tells the answer from the
/// others; the sentence that also says *where* usually does.
struct AskRanking: Sendable {
    /// What a question asks for, as something a sentence can be seen to hold.
    enum Cue: Sendable, CaseIterable {
        case time, place, duration, number, person, speech
    }

    let terms: [Term]
    let cues: Set<Cue>

    /// A query term: how it matches a word, and its weight.
    struct Term: Sendable {
        /// The term's words (a name may be several), lowercased; a prefix term's word without
        /// its ending ("tulips" → "tulip"), as FTS5's stemmer finds "tulip" for `"tulips"*`.
        let words: [String]
        /// The prefix term's word as asked, for finding it at a word's end ("nuts" in "walnuts").
        let asked: String
        /// A prefix term (`"walk"*`) matches the words it starts; a name matches whole.
        let prefix: Bool
        let weight: Double
    }

    /// What a sentence holding every cue adds: about a fifth of a rare word's weight, so a cue
    /// settles a tie between sentences holding the same words but never outweighs a word.
    static let cueWeight = 0.6
    /// A word ending with a term of four letters or more ("walnuts" for "nuts"), not found by
    /// its prefix, counts at this share of the term's weight.
    static let compoundShare = 0.5

    /// The ranking for `query`'s terms, `question`'s cues, and how many index rows each term
    /// matches (`counts`) among the journal's `entries`.
    init(_ query: AskQuery, question: String, counts: [String: Int] = [:], entries: Int = 0) {
        let total = Double(max(entries, 1))
        terms = query.terms.map { term in
            let bare = term.trimmingCharacters(in: CharacterSet(charactersIn: "\"*"))
            // A term counted in no row (or not counted) weighs as the rarest.
            let rows = Double(counts[term] ?? 0)
            let words = AskQuery.words(bare), prefix = term.hasSuffix("*")
            return Term(words: prefix ? words.map(Self.stem) : words, asked: words.first ?? "", prefix: prefix,
                        weight: log(1 + total / (rows + 0.5)))
        }
        cues = Self.cues(of: question)
    }

    /// The sentence's score: the weights of the terms it holds (half for a term only found
    /// at a word's end), and `cueWeight` when it holds what the question asks for.
    func score(_ sentence: String) -> Double {
        let words = AskQuery.words(sentence)
        var total = 0.0
        for term in terms {
            if Self.holds(words, term) {
                total += term.weight
            } else if term.prefix, term.asked.count >= 4,
                      words.contains(where: { $0.count >= term.asked.count + 3 && $0.hasSuffix(term.asked) }) {
                total += term.weight * Self.compoundShare
            }
        }
        if !cues.isEmpty {
            var held = Self.holdings(of: sentence, words: words)
            // "In six months" answers "when" as well as "how long".
            if held.contains(.duration) { held.insert(.time) }
            if !cues.isDisjoint(with: held) { total += Self.cueWeight }
        }
        return total
    }

    /// The index of the best-scoring sentence (the first of equals), and its score.
    func best(_ sentences: [EntrySentence]) -> (index: Int, score: Double) {
        var best = (index: 0, score: 0.0)
        for (index, sentence) in sentences.enumerated() {
            let score = score(sentence.text)
            if score > best.score { best = (index, score) }
        }
        return best
    }

    /// A word without the English ending FTS5's Porter stemmer would take off, roughly: enough
    /// that the sentence FTS5 found by "tulips" or "feeding" is seen to hold "tulip" or "feed".
    static func stem(_ word: String) -> String {
        func drop(_ count: Int) -> String { String(word.dropLast(count)) }
        if word.hasSuffix("ies"), word.count > 4 { return drop(3) }
        if word.hasSuffix("es"), ["ses", "xes", "zes", "ches", "shes"].contains(where: word.hasSuffix), word.count > 4 { return drop(2) }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), word.count > 3 { return drop(1) }
        if word.hasSuffix("ing"), word.count > 5 { return drop(3) }
        if word.hasSuffix("ed"), word.count > 4 { return drop(2) }
        return word
    }

    static func holds(_ words: [String], _ term: Term) -> Bool {
        guard let first = term.words.first else { return false }
        if term.prefix { return words.contains { $0.hasPrefix(first) } }
        guard term.words.count <= words.count else { return false }
        return (0...(words.count - term.words.count)).contains { Array(words[$0..<($0 + term.words.count)]) == term.words }
    }

    // MARK: What a question asks for

    /// The cues of `question`: "when", "what time", "which night" ask for a time; "where" for
    /// a place; "how long" for a length of time; "how much/many/old", a number or a code for
    /// a number; "who" for a person; "tell", "say", "recommend" for what someone said.
    static func cues(of question: String) -> Set<Cue> {
        let words = AskQuery.words(question)
        var cues = Set<Cue>()
        for (index, word) in words.enumerated() {
            let next = index + 1 < words.count ? words[index + 1] : ""
            switch word {
            case "when": cues.insert(.time)
            case "what" where timeAsked.contains(next), "which" where timeAsked.contains(next): cues.insert(.time)
            case "where": cues.insert(.place)
            case "who", "whom", "whose": cues.insert(.person)
            case "how" where next == "long": cues.insert(.duration)
            case "how" where ["much", "many", "old", "far", "big", "heavy", "tall"].contains(next): cues.insert(.number)
            case "number", "code", "cost", "costs", "price", "pin", "amount": cues.insert(.number)
            case "tell", "told", "say", "said", "says", "mention", "mentioned", "recommend", "recommended", "suggest",
                 "suggested", "advice", "advise", "advised", "warn", "warned": cues.insert(.speech)
            default: break
            }
        }
        return cues
    }

    /// "What time", "which night": the words after "what" or "which" that ask for a time.
    static let timeAsked: Set<String> = ["time", "day", "date", "night", "evening", "morning", "month", "week", "year"]

    // MARK: What a sentence holds

    /// The cues `sentence` (its `words`, lowercased) answers.
    static func holdings(of sentence: String, words: [String]) -> Set<Cue> {
        var held = Set<Cue>()
        for (index, word) in words.enumerated() {
            let next = index + 1 < words.count ? words[index + 1] : ""
            if timeWords.contains(word) || ordinal(word) || word == "half" && next == "past"
                || word == "at" && (isNumber(next) || next == "noon" || next == "midnight") {
                held.insert(.time)
            }
            if placeWords.contains(word) && (determiners.contains(next) || next == "level" || next == "row") {
                held.insert(.place)
            }
            if durationUnits.contains(word), index > 0, isNumber(words[index - 1]) || quantities.contains(words[index - 1]) {
                held.insert(.duration)
            }
            if isNumber(word) { held.insert(.number) }
            if speechWords.contains(word) { held.insert(.speech) }
        }
        if names(in: sentence) { held.insert(.person) }
        // A place named with a capital after a place word ("in Cornwall", "on Mill Street").
        if !held.contains(.place), capitalisedAfterPlaceWord(sentence) { held.insert(.place) }
        return held
    }

    static func isNumber(_ word: String) -> Bool {
        word.first?.isNumber == true || numberWords.contains(word)
    }

    static func ordinal(_ word: String) -> Bool {
        ordinals.contains(word) || word.count > 2 && word.first?.isNumber == true
            && ["st", "nd", "rd", "th"].contains(String(word.suffix(2)))
    }

    /// Whether a word after the first begins with a capital (a name, in a transcript or a
    /// typed entry alike), other than "I" and the names of days and months.
    static func names(in sentence: String) -> Bool {
        let words = sentence.split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "’" })
        return words.dropFirst().contains { word in
            guard let first = word.first, first.isUppercase, word.count > 1 else { return false }
            let lower = AskQuery.words(String(word)).first ?? ""
            return !timeWords.contains(lower) && lower != "i"
        }
    }

    static func capitalisedAfterPlaceWord(_ sentence: String) -> Bool {
        let words = sentence.split(whereSeparator: { $0.isWhitespace || $0 == "," })
        return zip(words, words.dropFirst()).contains { place, name in
            placeNameWords.contains(place.lowercased()) && name.first?.isUppercase == true && name != "I"
                && !timeWords.contains(AskQuery.words(String(name)).first ?? "")
        }
    }

    static let timeWords: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend", "weekday", "weekdays",
        "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
        "today", "tomorrow", "tonight", "yesterday", "morning", "afternoon", "evening", "night", "noon", "midnight",
        "clock", "am", "pm", "week", "month", "fortnight",
    ]
    static let ordinals: Set<String> = [
        "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
        "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "thirtieth",
    ]
    static let numberWords: Set<String> = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty",
        "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "half", "dozen",
    ]
    static let durationUnits: Set<String> = [
        "second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "fortnight", "month",
        "months", "year", "years",
    ]
    static let quantities: Set<String> = ["a", "an", "few", "several", "couple", "another", "more", "of"]
    static let placeWords: Set<String> = [
        "in", "on", "under", "behind", "inside", "above", "below", "beside", "near", "at", "by", "into", "onto",
        "beneath", "underneath", "outside", "next",
    ]
    /// The place words a capitalised name after makes a place ("in Cornwall", "on Mill Street").
    static let placeNameWords: Set<String> = ["in", "at", "on", "near", "outside", "inside", "behind"]
    static let determiners: Set<String> = ["the", "my", "our", "his", "her", "their", "a", "an", "your", "its"]
    static let speechWords: Set<String> = [
        "said", "says", "told", "tells", "mentioned", "asked", "recommended", "suggested", "promised", "agreed",
        "explained", "warned", "reckons", "advised",
    ]
}
