import Foundation
import VoiceJournalStore

/// A stretch of an entry handed to the model to answer from, numbered as it was sent: the
/// sentences around the best match, with their times when the entry is a recording.
public struct AskPassage: Sendable, Equatable, Codable {
    /// 1-based, as the model cites it (`[2]`).
    public var number: Int
    public var entryId: Int64
    public var journal: String
    public var date: Date
    /// Seconds from the start of the entry's recording; nil for typed text.
    public var start: Double?
    public var end: Double?
    public var text: String

    public init(number: Int, entryId: Int64, journal: String, date: Date, start: Double?, end: Double?, text: String) {
        self.number = number
        self.entryId = entryId
        self.journal = journal
        self.date = date
        self.start = start
        self.end = end
        self.text = text
    }
}

extension JournalStore {
    /// The passages that may answer a question: the entries FTS5 ranks best for `query`
    /// within `filter` (and the answers `person` gave), one passage each, best first — the
    /// sentence holding most of the query's terms with one sentence either side. A query
    /// with no terms (a question only about a period: "what did I do yesterday?") takes the
    /// filter's latest entries, from their start.
    public func askPassages(_ query: AskQuery, filter: EntryFilter = EntryFilter(), person: String? = nil,
                            limit: Int = 8) throws -> [AskPassage] {
        guard limit > 0 else { return [] }
        let entries: [EntryDetails]
        if query.pattern.isEmpty {
            guard filter.since != nil || filter.until != nil else { return [] }
            var latest = filter
            latest.limit = limit
            entries = try self.entries(latest)
        } else {
            let hits = try search(query.pattern, filter: filter, person: person, limit: limit)
            entries = try hits.compactMap { hit in try hit.entryId.map { try entry(id: $0) } }
        }
        var passages: [AskPassage] = []
        for entry in entries.prefix(limit) {
            let sentences = EntrySentences.of(entry)
            guard !sentences.isEmpty else { continue }
            let best = query.pattern.isEmpty ? 0 : Self.bestSentence(sentences, terms: query.terms)
            let stretch = sentences[max(0, best - 1)...min(sentences.count - 1, best + 1)]
            passages.append(AskPassage(number: passages.count + 1, entryId: entry.id, journal: entry.journal, date: entry.createdAt,
                                       start: stretch.first?.start, end: stretch.last?.end,
                                       text: stretch.map(\.text).joined(separator: " ")))
        }
        return passages
    }

    /// The sentence holding the most distinct terms (the first such), by the words a term
    /// starts (a prefix term) or equals (a name).
    static func bestSentence(_ sentences: [EntrySentence], terms: [String]) -> Int {
        let matchers = terms.map { term -> (words: [String], prefix: Bool) in
            let prefix = term.hasSuffix("*")
            let bare = term.trimmingCharacters(in: CharacterSet(charactersIn: "\"*"))
            return (AskQuery.words(bare), prefix)
        }
        var best = (index: 0, score: 0)
        for (index, sentence) in sentences.enumerated() {
            let words = AskQuery.words(sentence.text)
            let score = matchers.filter { matcher in
                guard let first = matcher.words.first else { return false }
                if matcher.prefix { return words.contains { $0.hasPrefix(first) } }
                guard matcher.words.count <= words.count else { return false }
                return (0...(words.count - matcher.words.count)).contains { Array(words[$0..<($0 + matcher.words.count)]) == matcher.words }
            }.count
            if score > best.score { best = (index, score) }
        }
        return best.index
    }
}
