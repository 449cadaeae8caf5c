import Foundation
import Logging
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal
import VoiceJournalTranscription

/// `voicejournal ask "QUESTION"`: the command's whole work, so the executable only parses.
/// Retrieval from the journal first (FTS5, the period the question names, SQL counts for a
/// counting question), then the answer streamed as the model writes it, then its citations
/// checked against the passages sent and shown with the commands that play them, and the
/// turn kept.
package struct AskRun: Sendable {
    package var question: String
    package var filter = EntryFilter()
    package var person: String?
    /// Continue a conversation: nil a new one, 0 the latest, else its id.
    package var continuing: Int64?
    package var json = false
    /// The most passages sent.
    package var passages = 8

    package init(question: String) { self.question = question }

    /// What the command prints after the stream, and the kept turn.
    package struct Output: Sendable {
        package var text: String
        package var turn: AskTurn
    }

    /// Asks; `show` is told each piece of the answer as it arrives (terminal-safe text),
    /// unless `json`. Returns what goes on stdout after the stream.
    package func run(settings: Settings, store: JournalStore, environment: [String: String], now: Date,
                     show: @escaping @Sendable (String) -> Void) async throws -> Output {
        let endpoints = try settings.chatEndpoints(environment: environment)
        var filter = filter
        let dates = QuestionDates.read(question, now: now)
        if let dates, filter.since == nil, filter.until == nil { (filter.since, filter.until) = (dates.start, dates.end) }
        let history = try continuing.map { try Self.conversation($0, in: store) }
        let retrieved = try await findPassages(dates?.rest ?? question, filter: filter, settings: settings, store: store, environment: environment)
        let found = retrieved.passages
        let facts = Self.isCounting(question) ? try store.askFacts(filter) : []
        let range = dates.map { "\($0.phrase) (\(Self.span($0.start, $0.end)))" }
            ?? (filter.since != nil || filter.until != nil ? Self.span(filter.since, filter.until) : nil)
        let turns = history?.1.map { AskPrompt.Turn(question: $0.question, answer: $0.answer) } ?? []
        let logger = Logger(label: "voicejournal.ask")
        let abort = AbortSignal()
        let streamed = try await withTaskCancellationHandler {
            try await onThread { [question, json] in
                try Self.answer(found, logger: logger, on: endpoints, abort: abort, show: { if !json { show(TerminalText.escapedLines($0)) } }) {
                    AskPrompt.request(question: question, passages: $0, facts: facts, range: range, history: turns)
                }
            }
        } onCancel: {
            abort.raise()
        }
        let (endpoint, answer, sent) = streamed
        let citations = AskCitations.check(answer.content, passages: sent)
        let turn = try store.addAskTurn(AskTurn(
            conversationId: history?.0.id ?? 0, question: question, rangeText: range, rangeStart: filter.since, rangeEnd: filter.until,
            passages: sent.map { AskTurn.PassageRef(number: $0.number, entryId: $0.entryId, assignmentId: $0.assignmentId, start: $0.start,
                                                    end: $0.end) },
            facts: facts, answer: citations.text, cited: citations.cited, removed: citations.removed, incomplete: answer.incomplete,
            model: endpoint.model, endpointHost: endpoint.host, promptVersion: AskPrompt.version,
            inputTokens: answer.inputTokens, outputTokens: answer.outputTokens, seconds: answer.seconds,
            firstTextSeconds: answer.firstTextSeconds, cost: endpoint.cost(inputTokens: answer.inputTokens, outputTokens: answer.outputTokens),
            createdAt: now))
        // Stopped mid-answer: what arrived is kept (above), and the command ends as interrupted.
        if abort.isRaised { throw CancellationError() }
        var page = AskPage(turn: turn, passages: sent)
        page.notes = retrieved.notes
        return Output(text: json ? try JSONText.encode(page) : page.linesAfterStream().joined(separator: "\n"), turn: turn)
    }

    /// The conversation `--continue` goes on with (`id` 0: the latest) and its turns; none
    /// there is an error that says what to ask for instead.
    static func conversation(_ id: Int64, in store: JournalStore) throws -> (AskConversation, [AskTurn]) {
        guard let found = try store.askConversation(id: id == 0 ? nil : id) else {
            throw StoreError.notFound(id == 0 ? "no conversation to continue yet: ask without --continue first"
                                               : "no conversation \(id) (see `voicejournal ask --list`)")
        }
        return found
    }

    /// The passages for `words` (the question without the period it names) within `filter`,
    /// its query knowing the journal's people and vocabulary, found on a thread of their own.
    private func findPassages(_ words: String, filter: EntryFilter, settings: Settings, store: JournalStore,
                              environment: [String: String]) async throws -> (passages: [AskPassage], notes: [String]) {
        var names = try store.people().map(\.name)
        names += (try? store.vocabulary(journal: filter.journal).map(\.word)) ?? []
        let query = AskQuery(words, names: names)
        let vectors = try Self.vectors(settings: settings, environment: environment)
        return try await onThread { [person, passages, question] in
            try Self.retrieve(query, question: question, store: store, filter: filter, person: person, limit: passages, vectors: vectors)
        }
    }

    /// The passages for the question: by words and, with `vectors`, by meaning too; when the
    /// embeddings cannot be had (the server has none, refuses), by words alone, said in a note.
    static func retrieve(_ query: AskQuery, question: String, store: JournalStore, filter: EntryFilter, person: String?, limit: Int,
                         vectors: AskVectors?) throws -> (passages: [AskPassage], notes: [String]) {
        do {
            return (try store.askPassages(query, question: question, filter: filter, person: person, limit: limit, vectors: vectors), [])
        } catch let error as ChatError where vectors != nil {
            let passages = try store.askPassages(query, question: question, filter: filter, person: person, limit: limit)
            return (passages, ["(No embeddings: \(error.description); searched by words alone.)"])
        }
    }

    /// The embeddings `[chat] embeddings_model` names, as `askPassages` takes them; nil when none is named.
    static func vectors(settings: Settings, environment: [String: String]) throws -> AskVectors? {
        guard let chat = settings.chat, let embeddings = chat.embeddings else { return nil }
        let endpoint = try ChatEndpoint.resolve(baseURL: embeddings.baseURL, model: embeddings.model, keyVariable: chat.keyVariable,
                                                environment: environment, origin: "[chat] embeddings_url")
        let logger = Logger(label: "voicejournal.ask")
        return AskVectors(model: embeddings.model) { texts in try ChatConnection(endpoint: endpoint, logger: logger).embed(texts) }
    }

    /// The answer to the request `build` makes of `passages`; a context too small for them
    /// is asked again with half as many (the best ones kept).
    static func answer(_ passages: [AskPassage], logger: Logger, on endpoints: [ChatEndpoint], abort: AbortSignal,
                       show: (String) -> Void, build: ([AskPassage]) -> ChatRequest) throws -> (ChatEndpoint, ChatAnswer, [AskPassage]) {
        let result = Result { try stream(build(passages), on: endpoints, logger: logger, abort: abort, show: show) }
        switch result {
        case .success(let (endpoint, answer)):
            return (endpoint, answer, passages)
        case .failure(let error as ChatError) where error.kind == .contextTooLong && passages.count > 1:
            return try answer(Array(passages.prefix(passages.count / 2)), logger: logger, on: endpoints, abort: abort, show: show, build: build)
        case .failure(let error):
            throw error
        }
    }

    /// The answer from the pool's first server that takes the request: one that cannot be
    /// reached or fails before any text passes it to the next; text already shown is kept.
    static func stream(_ request: ChatRequest, on endpoints: [ChatEndpoint], logger: Logger, abort: AbortSignal,
                       show: (String) -> Void) throws -> (ChatEndpoint, ChatAnswer) {
        try ChatFailover.first(of: endpoints, ask: { endpoint in
            (endpoint, try ChatConnection(endpoint: endpoint, abort: abort, logger: logger).stream(request, onText: show))
        }, passed: { _, _, error in
            logger.warning("chat server did not answer; asking the next", metadata: ["error": "\(error.description)"])
        })
    }

    /// `ask --list` (no id) or `ask --show ID`: the conversations, or one with its turns.
    package static func shown(_ id: Int64?, store: JournalStore, json: Bool) throws -> String {
        guard let id else {
            let conversations = try store.askConversations()
            if json { return try JSONText.encode(conversations) }
            guard !conversations.isEmpty else { return "No conversations yet: voicejournal ask \"QUESTION\"" }
            return conversations.map { "\($0.id ?? 0)  \(LocalDate.short($0.updatedAt))  \(TerminalText.escaped($0.title))" }
                .joined(separator: "\n")
        }
        guard let (conversation, turns) = try store.askConversation(id: id) else {
            throw StoreError.notFound("no conversation \(id) (see `voicejournal ask --list`)")
        }
        let pages = try turns.map { try shownPage($0, store: store) }
        if json { return try JSONText.encode(pages) }
        var lines = ["Conversation \(id): \(TerminalText.escaped(conversation.title))"]
        for page in pages {
            lines += ["", "> " + TerminalText.escaped(page.turn.question), TerminalText.escapedLines(page.turn.answer)] + page.linesAfterStream().dropFirst()
        }
        return lines.joined(separator: "\n")
    }

    /// A kept turn as shown: its passages whose entries are still in the journal (an entry
    /// deleted since, or named by a crafted import, gives no citation: it is said instead).
    static func shownPage(_ turn: AskTurn, store: JournalStore) throws -> AskPage {
        var gone: [Int] = []
        let passages = try turn.passages.compactMap { ref -> AskPassage? in
            let found: (journal: String, date: Date)?
            if let assignment = ref.assignmentId {
                found = try store.assignmentIfPresent(id: assignment).map { ($0.journal, $0.answeredAt ?? $0.createdAt) }
            } else {
                found = try ref.entryId.flatMap { try store.entryIfPresent(id: $0) }.map { ($0.journal, $0.createdAt) }
            }
            guard let found else {
                if turn.cited.contains(ref.number) { gone.append(ref.number) }
                return nil
            }
            return AskPassage(number: ref.number, entryId: ref.entryId, assignmentId: ref.assignmentId, journal: found.journal,
                              date: found.date, start: ref.start, end: ref.end, text: "")
        }
        var page = AskPage(turn: turn, passages: passages)
        if !gone.isEmpty {
            page.notes = ["Cited " + gone.map { "[\($0)]" }.joined(separator: ", ") + ": no longer in the journal (deleted since)."]
        }
        return page
    }

    /// Whether the question asks for a count ("how often", "how many"): it gets numbers
    /// counted by SQL, never a model's tally of passages.
    static func isCounting(_ question: String) -> Bool {
        let lowered = question.lowercased()
        return ["how often", "how many", "how much", "how frequently", "number of", "count "].contains { lowered.contains($0) }
    }

    /// `Mon 16 Nov 2026 – Sun 22 Nov 2026` (the end is exclusive: the day before it is shown).
    static func span(_ start: Date?, _ end: Date?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE d MMM yyyy"
        let from = start.map(formatter.string) ?? "the start"
        let to = end.map { formatter.string(from: $0.addingTimeInterval(-1)) } ?? "now"
        return "\(from) – \(to)"
    }
}
