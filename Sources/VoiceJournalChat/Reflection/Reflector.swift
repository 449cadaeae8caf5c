import Foundation
import Logging
import VoiceJournalStore
import VoiceJournalTranscription

/// Asks a chat model to reflect on an entry, checks the answer, asks once more with the
/// reasons when it breaks a rule, and keeps what came of it: a valid reflection, or a failed
/// one with why. Blocking (SQLite, libcurl): call it from a thread of its own.
public struct Reflector: Sendable {
    public let endpoint: ChatEndpoint
    /// When to try a request again that failed on the way (429, 5xx, a broken connection).
    public var policy: RetryPolicy
    /// Tries per request before the failure is the run's.
    public var maxAttempts: Int
    let logger: Logger
    let learned = ChatConnection.LearnedForm()

    public init(endpoint: ChatEndpoint, policy: RetryPolicy = RetryPolicy(), maxAttempts: Int = 5, logger: Logger) {
        self.endpoint = endpoint
        self.policy = policy
        self.maxAttempts = maxAttempts
        self.logger = logger
    }

    /// What `reflect` did.
    public enum Outcome: Sendable, Equatable {
        /// The entry had a reflection and none was asked for (`again` false): nothing was sent.
        case kept(StoredReflection)
        /// A new reflection, valid or failed, now kept.
        case made(StoredReflection)

        public var reflection: StoredReflection {
            switch self { case .kept(let kept): kept; case .made(let made): made }
        }
    }

    /// Reflects on entry `entryId` of `store`, unless it has a reflection and `again` is false.
    /// An entry whose request would not fit the model's context (`endpoint.contextTokens`) is
    /// reflected in parts, then as a whole (see `ReflectionParts`).
    public func reflect(entryId: Int64, in store: JournalStore, again: Bool = false, now: Date = Date(),
                        abort: AbortSignal = AbortSignal()) throws -> Outcome {
        if !again, let latest = try store.latestReflection(entryId: entryId) { return .kept(latest) }
        let subject = try Self.subject(entryId: entryId, in: store)
        let connection = try ChatConnection(endpoint: endpoint, abort: abort, learned: learned, logger: logger)
        let session = ReflectionSession(reflector: self, connection: connection, abort: abort, logger: logger)
        let made = try ReflectionParts(subject: subject, contextTokens: endpoint.contextTokens).reflect(in: session)
        var stored = keptReflection(entryId: entryId, periodKind: .entry,
                                    promptVersion: made.inParts ? ReflectionPrompt.partsVersion : ReflectionPrompt.version, usage: session.usage, now: now)
        switch made.outcome {
        case .valid(let reflection):
            stored.status = .valid
            stored.fields = Self.encode(reflection)
        case .invalid(let reasons):
            stored.reasons = reasons
        }
        return .made(try store.addReflection(stored))
    }

    /// Requests made for one reflection and what they took: every request sent, a refused one
    /// (its context too small) with its time and no tokens.
    struct Usage {
        var requests = 0, input = 0, output = 0, seconds = 0.0
        mutating func add(_ answer: ChatAnswer) {
            requests += 1
            input += answer.inputTokens
            output += answer.outputTokens
            seconds += answer.seconds
        }
    }

    /// A reflection asked of this endpoint as it is kept, before its outcome is known: failed,
    /// with no fields, and what `usage` took and cost. An entry's (`entryId`), or a period's
    /// (`periodKind` with its bounds).
    func keptReflection(entryId: Int64?, periodKind: StoredReflection.PeriodKind, periodStart: Date? = nil, periodEnd: Date? = nil,
                        promptVersion: String, usage: Usage, now: Date) -> StoredReflection {
        StoredReflection(entryId: entryId, periodKind: periodKind, periodStart: periodStart, periodEnd: periodEnd, status: .failed,
                         reasons: [], fields: nil, model: endpoint.model, endpointHost: endpoint.host, promptVersion: promptVersion,
                         requests: usage.requests, inputTokens: usage.input, outputTokens: usage.output,
                         seconds: usage.seconds, cost: endpoint.cost(inputTokens: usage.input, outputTokens: usage.output),
                         createdAt: now)
    }

    /// The request `reflect` would send first for entry `entryId`: what `--dry-run` prints.
    public func request(entryId: Int64, in store: JournalStore) throws -> ChatRequest {
        try plan(entryId: entryId, in: store).first
    }

    /// What `reflect` would send for entry `entryId`, as far as it can be known before: the
    /// first request, and how many parts the entry would be read in (1: at once), by the
    /// estimate; a server whose context is smaller than `endpoint.contextTokens` makes more.
    public func plan(entryId: Int64, in store: JournalStore) throws -> (first: ChatRequest, parts: Int) {
        ReflectionParts(subject: try Self.subject(entryId: entryId, in: store), contextTokens: endpoint.contextTokens).plan()
    }

    /// The body of `request` as this endpoint would be sent it (the schema in its first form).
    public func body(of request: ChatRequest) -> JSONValue {
        request.body(model: endpoint.model, form: learned.value ?? endpoint.firstSchemaForm)
    }

    static func subject(entryId: Int64, in store: JournalStore) throws -> ReflectionSubject {
        let subject = try store.reflectionSubject(entryId: entryId)
        guard !subject.sentences.isEmpty else {
            throw ReflectionError("entry \(entryId) has no words to reflect on yet (a recording not transcribed yet: run `voicejournal queue run`)")
        }
        return subject
    }

    /// One request, tried again after failures that may pass (with backoff, never sooner than
    /// the server asked); a server that is not there, a refused key or the run ending stop at once.
    func send(_ request: ChatRequest, on connection: ChatConnection, abort: AbortSignal) throws(ChatError) -> ChatAnswer {
        var attempt = 0
        while true {
            do {
                return try connection.complete(request)
            } catch {
                attempt += 1
                guard error.disposition == .retry, !error.nothingListens, attempt < maxAttempts, !abort.isRaised else { throw error }
                let wait = policy.delay(afterAttempt: attempt, serverWait: error.retryAfter)
                logger.info("chat request failed; trying again", metadata: ["error": "\(error.description)", "wait": "\(wait)"])
                let until = ProcessInfo.processInfo.systemUptime + wait
                while ProcessInfo.processInfo.systemUptime < until {
                    if abort.isRaised { throw ChatError(kind: .cancelled, description: "the request was stopped") }
                    Thread.sleep(forTimeInterval: min(0.1, max(0, until - ProcessInfo.processInfo.systemUptime)))
                }
            }
        }
    }

    /// A reflection's fields as stored: JSON, keys sorted.
    public static func encode(_ reflection: Reflection) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(reflection)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The fields of a stored reflection; nil for a failed one or fields that do not read.
    public static func decode(_ stored: StoredReflection) -> Reflection? {
        guard stored.status == .valid, let fields = stored.fields else { return nil }
        return try? JSONDecoder().decode(Reflection.self, from: Data(fields.utf8))
    }
}

/// The requests of one reflection, on one connection: each answer checked, and asked for once
/// more with the reasons when it breaks a rule; what they took summed. Not Sendable: it lives
/// on the thread that reflects.
final class ReflectionSession {
    private let reflector: Reflector
    private let connection: ChatConnection
    private let abort: AbortSignal
    private let logger: Logger
    private(set) var usage = Reflector.Usage()

    init(reflector: Reflector, connection: ChatConnection, abort: AbortSignal, logger: Logger) {
        self.reflector = reflector
        self.connection = connection
        self.abort = abort
        self.logger = logger
    }

    /// The answer to `request`, checked against `subject` (what the request was about), with one repair.
    func reflect(_ request: ChatRequest, checkedAgainst subject: ReflectionSubject) throws(ChatError) -> ReflectionCheck.Outcome {
        let first = try ask(request)
        var outcome = ReflectionCheck.check(first, for: subject)
        if case .invalid(let reasons) = outcome {
            logger.debug("reflection broke the rules; asking once more", metadata: ["entry": "\(subject.entryId)", "reasons": "\(reasons)"])
            outcome = ReflectionCheck.check(try ask(ReflectionPrompt.repair(request, answer: first.content, reasons: reasons)), for: subject)
        }
        return outcome
    }

    private func ask(_ request: ChatRequest) throws(ChatError) -> ChatAnswer {
        guard !abort.isRaised else { throw ChatError(kind: .cancelled, description: "the request was stopped") }
        let started = ProcessInfo.processInfo.systemUptime
        do throws(ChatError) {
            let answer = try reflector.send(request, on: connection, abort: abort)
            usage.add(answer)
            return answer
        } catch {
            // A refusal for its length was still a request, and took time; it read no tokens.
            if error.kind == .contextTooLong {
                usage.requests += 1
                usage.seconds += ProcessInfo.processInfo.systemUptime - started
            }
            throw error
        }
    }
}

/// A reflection that cannot be asked for: the entry has no words yet, no chat endpoint is named.
public struct ReflectionError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    /// Whether it is the configuration's (exit 3) rather than this entry's.
    public let isConfiguration: Bool
    public init(_ description: String, isConfiguration: Bool = false) {
        self.description = description
        self.isConfiguration = isConfiguration
    }
}
