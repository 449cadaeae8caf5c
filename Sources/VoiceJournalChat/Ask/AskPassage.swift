import Foundation
import VoiceJournalStore

/// A stretch of an entry handed to the model to answer from, numbered as it was sent: the
/// sentences around the best match, with their times when the entry is a recording.
public struct AskPassage: Sendable, Equatable, Codable {
    /// 1-based, as the model cites it (`[2]`).
    public var number: Int
    /// The entry it is from; nil for an answer to an assignment (`assignmentId`).
    public var entryId: Int64?
    public var assignmentId: Int64?
    public var journal: String
    public var date: Date
    /// Seconds from the start of the entry's recording; nil for typed text.
    public var start: Double?
    public var end: Double?
    public var text: String

    public init(number: Int, entryId: Int64?, assignmentId: Int64? = nil, journal: String, date: Date, start: Double?, end: Double?,
                text: String) {
        self.number = number
        self.entryId = entryId
        self.assignmentId = assignmentId
        self.journal = journal
        self.date = date
        self.start = start
        self.end = end
        self.text = text
    }
}

/// Embeddings for `ask`: an endpoint's `/embeddings` as a function, and its model's name
/// (vectors are kept per model).
public struct AskVectors: Sendable {
    public var model: String
    public var embed: @Sendable ([String]) throws -> [[Float]]
    /// The most passages embedded for one question (the rest wait for the next).
    public var budget: Int

    public init(model: String, budget: Int = 256, embed: @escaping @Sendable ([String]) throws -> [[Float]]) {
        self.model = model
        self.budget = budget
        self.embed = embed
    }

    /// Sentences per embedded passage.
    static let sentencesPerPassage = 3
    /// Reciprocal rank fusion's constant: a hit at rank r counts 1 / (k + r).
    static let fusionK = 60.0
}

extension JournalStore {
    /// The passages that may answer a question: the entries FTS5 finds for `query` within
    /// `filter` (and the answers `person` gave), ranked by their best sentence (`AskRanking`:
    /// the terms it holds weighed by rarity, and whether it holds what the question asks for;
    /// ties in FTS5's bm25 order), fused by reciprocal rank with the entries whose reflections
    /// match; one passage each, best first — the best sentence with one sentence either side.
    /// With `vectors`, the entries' passages are embedded (once per text) and ranked by meaning
    /// against `question` as well, and the rankings fused by reciprocal rank (k = 60); an entry
    /// found only by meaning gives its closest passage. A query with no terms (a question only
    /// about a period: "what did I do yesterday?") takes the filter's latest entries, from their start.
    public func askPassages(_ query: AskQuery, question: String = "", filter: EntryFilter = EntryFilter(), person: String? = nil,
                            limit: Int = 8, vectors: AskVectors? = nil) throws -> [AskPassage] {
        guard limit > 0 else { return [] }
        if let person { return try answerPassages(query, question: question, filter: filter, person: person, limit: limit) }
        var ranked: [Int64] = []
        var loaded: [Int64: EntryDetails] = [:]
        let ranking: AskRanking
        if query.pattern.isEmpty {
            ranking = AskRanking(query, question: question)
            if filter.since != nil || filter.until != nil {
                var latest = filter
                latest.limit = limit
                ranked = try entries(latest).map(\.id)
            }
        } else {
            let counted = try termCounts(query.terms)
            ranking = AskRanking(query, question: question, counts: counted.counts, entries: counted.entries)
            ranked = try rankedByWords(query, ranking: ranking, filter: filter, person: person,
                                       candidates: limit * Self.candidatesPerPassage, loaded: &loaded)
            // What reflections said of entries counts too (not for a person's answers: reflections are on entries).
            if person == nil {
                let byReflection = try entriesByReflection(matching: query.pattern, filter: filter, limit: limit * 2)
                if !byReflection.isEmpty { ranked = Self.fused([ranked, byReflection]) }
            }
        }
        var closest: [Int64: PassageVector] = [:]
        if let vectors, person == nil, !question.isEmpty {
            let byMeaning = try rankByMeaning(question, filter: filter, vectors: vectors, limit: limit * 2)
            closest = Dictionary(byMeaning.map { ($0.entryId, $0) }, uniquingKeysWith: { first, _ in first })
            ranked = Self.fused([ranked, byMeaning.map(\.entryId)])
        }
        var passages: [AskPassage] = []
        for id in ranked.prefix(limit) {
            let entry = try loaded[id] ?? entry(id: id)
            let sentences = EntrySentences.of(entry)
            guard !sentences.isEmpty else { continue }
            let best = query.pattern.isEmpty ? (index: 0, score: 0) : ranking.best(sentences)
            let stretch: ArraySlice<EntrySentence>
            if let near = closest[id], best.score == 0, near.lastSentence < sentences.count {
                stretch = sentences[near.firstSentence...near.lastSentence]
            } else {
                stretch = sentences[max(0, best.index - 1)...min(sentences.count - 1, best.index + 1)]
            }
            passages.append(AskPassage(number: passages.count + 1, entryId: entry.id, journal: entry.journal, date: entry.createdAt,
                                       start: stretch.first?.start, end: stretch.last?.end,
                                       text: stretch.map(\.text).joined(separator: " ")))
        }
        return passages
    }

    /// `ask --person`: passages from the answers `person` gave (their transcripts), found and
    /// ranked as entries' are; a question with no terms takes their latest answers.
    func answerPassages(_ query: AskQuery, question: String, filter: EntryFilter, person: String, limit: Int) throws -> [AskPassage] {
        var ids: [Int64]
        if query.pattern.isEmpty {
            // Their latest answers (in the period asked about, when one is).
            ids = try assignments(status: .answered).filter { answer in
                let when = answer.answeredAt ?? answer.createdAt
                return (answer.person.lowercased() == person.lowercased() || String(answer.personId) == person)
                    && filter.since.map { when >= $0 } ?? true && filter.until.map { when < $0 } ?? true
                    && filter.journal.map { $0 == answer.journal } ?? true
            }.sorted { ($0.answeredAt ?? $0.createdAt) > ($1.answeredAt ?? $1.createdAt) }.prefix(limit).map(\.id)
        } else {
            ids = try bestMatches(query.pattern, filter: filter, person: person, limit: limit * Self.candidatesPerPassage)
                .compactMap(\.assignmentId)
        }
        let counted = query.pattern.isEmpty ? (counts: [:], entries: 0) : try termCounts(query.terms)
        let ranking = AskRanking(query, question: question, counts: counted.counts, entries: counted.entries)
        var found: [(assignment: AssignmentSummary, sentences: [EntrySentence], best: (index: Int, score: Double), order: Int)] = []
        for (order, id) in ids.enumerated() {
            guard let details = try recordingDetails(ofAssignment: id), let transcript = details.transcript,
                  let assignment = details.answers else { continue }
            let sentences = transcript.segments.isEmpty ? EntrySentences.split(transcript.text) : EntrySentences.timed(transcript.segments)
            guard !sentences.isEmpty else { continue }
            found.append((assignment, sentences, query.pattern.isEmpty ? (0, 0) : ranking.best(sentences), order))
        }
        found.sort { ($0.best.score, -$0.order) > ($1.best.score, -$1.order) }
        return found.prefix(limit).enumerated().map { number, answer in
            let stretch = answer.sentences[max(0, answer.best.index - 1)...min(answer.sentences.count - 1, answer.best.index + 1)]
            return AskPassage(number: number + 1, entryId: nil, assignmentId: answer.assignment.id, journal: answer.assignment.journal,
                              date: answer.assignment.answeredAt ?? answer.assignment.createdAt, start: stretch.first?.start,
                              end: stretch.last?.end, text: stretch.map(\.text).joined(separator: " "))
        }
    }

    /// FTS5's candidates per passage sent: the answer's entry can rank well below entries
    /// holding the same one word when only its sentence says what was asked.
    static let candidatesPerPassage = 8

    /// The entries FTS5 ranks best for `query` (the first `candidates`), reordered by their
    /// best sentence's score under `ranking`, ties in FTS5's order; the entries read are kept
    /// in `loaded` for their passages.
    func rankedByWords(_ query: AskQuery, ranking: AskRanking, filter: EntryFilter, person: String?, candidates: Int,
                       loaded: inout [Int64: EntryDetails]) throws -> [Int64] {
        let ids = try bestMatches(query.pattern, filter: filter, person: person, limit: candidates).compactMap(\.entryId)
        var scored: [(id: Int64, order: Int, score: Double)] = []
        for (order, id) in ids.enumerated() {
            let entry = try entry(id: id)
            loaded[id] = entry
            scored.append((id, order, ranking.best(EntrySentences.of(entry)).score))
        }
        return scored.sorted { ($0.score, -$0.order) > ($1.score, -$1.order) }.map(\.id)
    }

    /// Reciprocal rank fusion: each id scores the sum of 1 / (k + rank) over the rankings
    /// holding it; best first, ties by first appearance.
    static func fused(_ rankings: [[Int64]]) -> [Int64] {
        var scores: [Int64: Double] = [:], order: [Int64] = []
        for ranking in rankings {
            for (rank, id) in ranking.enumerated() {
                if scores[id] == nil { order.append(id) }
                scores[id, default: 0] += 1 / (AskVectors.fusionK + Double(rank + 1))
            }
        }
        return order.enumerated().sorted { (scores[$0.element]!, -$0.offset) > (scores[$1.element]!, -$1.offset) }.map(\.element)
    }

    /// The filter's entries' passages closest in meaning to `question`, one (the closest) per
    /// entry, best first; entries not embedded yet (or changed since) are embedded first, up
    /// to the budget.
    func rankByMeaning(_ question: String, filter: EntryFilter, vectors: AskVectors, limit: Int) throws -> [PassageVector] {
        var unlimited = filter
        unlimited.limit = nil
        let candidates = try entries(unlimited)
        let known = try passageVectorHashes(model: vectors.model)
        var budget = vectors.budget
        for entry in candidates where budget > 0 {
            let sentences = EntrySentences.of(entry)
            let hash = Self.textHash(sentences.map(\.text).joined(separator: "\n"))
            guard known[entry.id] != hash, !sentences.isEmpty else { continue }
            let runs = stride(from: 0, to: sentences.count, by: AskVectors.sentencesPerPassage).map {
                ($0, min(sentences.count, $0 + AskVectors.sentencesPerPassage) - 1)
            }
            var made: [PassageVector] = []
            for batch in stride(from: 0, to: runs.count, by: ChatConnection.embeddingsBatch) {
                let part = Array(runs[batch..<min(runs.count, batch + ChatConnection.embeddingsBatch)])
                let texts = part.map { run in sentences[run.0...run.1].map(\.text).joined(separator: " ") }
                let embedded = try vectors.embed(texts)
                made += zip(part, embedded).map { PassageVector(entryId: entry.id, firstSentence: $0.0, lastSentence: $0.1, vector: $1) }
            }
            try storePassageVectors(made, entryId: entry.id, model: vectors.model, textHash: hash)
            budget -= runs.count
        }
        guard let asked = try vectors.embed([question]).first else { return [] }
        var best: [Int64: (Float, PassageVector)] = [:]
        for passage in try passageVectors(model: vectors.model, entries: Set(candidates.map(\.id))) {
            let score = Self.cosine(asked, passage.vector)
            if score > (best[passage.entryId]?.0 ?? -.infinity) { best[passage.entryId] = (score, passage) }
        }
        return best.values.sorted { $0.0 > $1.0 }.prefix(limit).map(\.1)
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return -1 }
        var dot: Float = 0, na: Float = 0, nb: Float = 0
        for index in a.indices {
            dot += a[index] * b[index]
            na += a[index] * a[index]
            nb += b[index] * b[index]
        }
        return na > 0 && nb > 0 ? dot / (na.squareRoot() * nb.squareRoot()) : -1
    }

    /// FNV-1a, 64 bits, as hex: the same text gives the same hash in every process.
    static func textHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
