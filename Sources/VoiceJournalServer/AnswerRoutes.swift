import Foundation
import HTTPTypes
import Hummingbird
import NIOFileSystem
import VoiceJournalRecording
import VoiceJournalStore
import VoiceJournalSystem

/// The two routes of a link: the page (`GET /a/<token>`) and its upload
/// (`POST /a/<token>/answer`). The token is the only credential and opens only its own
/// assignment; every link that does not work gets the same 404 (a page for `GET`, JSON the
/// page can show for an upload).
struct AnswerRoutes: Sendable {
    let store: JournalStore
    let configuration: AnswerServer.Configuration
    let uploads: UploadReceiver
    let onEvent: @Sendable (AnswerServer.Event) -> Void
    /// Requests for links that do not work, per client: token guessing is slowed without
    /// touching any real link's allowance.
    let misses: RateLimiter
    /// Requests for each working link (its page and uploads), per link.
    let perLink: RateLimiter
    /// Uploads for each link, per link.
    let uploadsPerLink: RateLimiter
    /// One turn at a time per link and Idempotency-Key.
    let turns = KeyedTurns()
    /// One lookup at a time per client over its allowance of `misses`.
    let missTurns = KeyedTurns()
    /// The bytes each link's uploads hold in `incoming/` together: two uploads' worth, so a
    /// resend while a dropped first send is still timing out is taken.
    let budget: LinkBudget
    let trusted: Set<String>

    init(store: JournalStore, configuration: AnswerServer.Configuration, uploads: UploadReceiver,
         onEvent: @escaping @Sendable (AnswerServer.Event) -> Void) {
        self.store = store
        self.configuration = configuration
        self.uploads = uploads
        self.onEvent = onEvent
        misses = RateLimiter(configuration.requestsPerMinute, per: 60, burst: configuration.requestsPerMinute)
        perLink = RateLimiter(configuration.requestsPerMinute, per: 60, burst: configuration.requestsPerMinute)
        uploadsPerLink = RateLimiter(configuration.uploadsPerHour, per: 3600, burst: configuration.uploadsPerHour)
        budget = LinkBudget(limit: configuration.maxUploadBytes.multipliedReportingOverflow(by: 2).overflow
                            ? .max : configuration.maxUploadBytes * 2)
        trusted = Set(configuration.trustedProxies.compactMap(ClientAddress.canonical))
    }

    /// The answer page, the thank-you page once answered, or the one 404 page.
    func page(_ request: Request, context: ServeContext) async -> Response {
        let client = self.client(request, context)
        guard let linked = await link(context, for: client) else {
            if let refusal = misses.check(client.limitKey) {
                return limited(client, refusal, what: "requests for links that do not work", json: false)
            }
            return Responses.notFound()
        }
        if let refusal = perLink.check("\(linked.assignmentId)") {
            return limited(client, refusal, what: "requests for assignment #\(linked.assignmentId)", json: false)
        }
        if linked.isAnswered { return Responses.page(.ok, AnswerPages.thanks(question: linked.question)) }
        return Responses.page(.ok, AnswerPages.answer(question: linked.question, askedBy: configuration.askedBy,
                                                      uploadPath: "/a/\(linked.linkToken)/answer",
                                                      maxSeconds: configuration.maxAnswerSeconds))
    }

    /// Takes an upload: streamed to disk under the cap, then checked, hashed and stored as the
    /// answer by `AnswerAttachment` (as `answer --file` does), in one transaction.
    func answer(_ request: Request, context: ServeContext) async -> Response {
        let client = self.client(request, context)
        guard let linked = await link(context, for: client) else {
            if let refusal = misses.check(client.limitKey) {
                return limited(client, refusal, what: "uploads to links that do not work", json: true)
            }
            return Responses.withdrawn()
        }
        let id = linked.assignmentId
        if let refusal = perLink.check("\(id)") ?? uploadsPerLink.check("\(id)") {
            return limited(client, refusal, what: "uploads for assignment #\(id)", json: true)
        }
        guard let key = Self.idempotencyKey(request) else {
            return refuse(id, client, .badRequest, "The upload's Idempotency-Key must be 1 to 200 printable characters.")
        }
        // A send repeated after a lost reply gets the first answer back, whatever it carries now.
        if let early = await earlierAnswer(id, client, key) { return early }
        if linked.isAnswered { return refuse(id, client, .conflict, "This question has already been answered. Thank you!") }
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let declared, declared > configuration.maxUploadBytes {
            return refuse(id, client, .contentTooLarge, tooLargeMessage)
        }

        // What this request may hold on the disk: its declared length at once, or (chunked) as it arrives.
        var held: Int64 = 0
        defer { budget.release(held, for: id) }
        if let declared {
            guard budget.reserve(declared, for: id) else { return busy(id, client) }
            held = declared
        }
        let received: UploadReceiver.Received
        do {
            received = try await uploads.receive(request.body, contentType: request.headers[.contentType], reserved: held) { more in
                guard budget.reserve(more, for: id) else { return false }
                held += more
                return true
            }
        } catch let refusal as UploadReceiver.Refusal {
            switch refusal {
            case .tooLarge: return refuse(id, client, .contentTooLarge, tooLargeMessage)
            case .malformed(let why): return refuse(id, client, .badRequest, "The upload could not be read: \(why).")
            case .noAudio: return refuse(id, client, .badRequest, "The upload holds no recording.")
            case .busy: return busy(id, client)
            }
        } catch {
            return failed(id, client, error)
        }
        // The same take sent twice at once: the second waits for the first and gets its answer.
        let response = await turns.one("\(id) \(key)") {
            if let early = await earlierAnswer(id, client, key) { return early }
            return await attach(received.file, id, client, key)
        }
        _ = try? await FileSystem.shared.removeItem(at: FilePath(received.file.path))
        return response
    }

    /// The earlier answer stored under `key`, as the reply to give; nil when the key is new.
    private func earlierAnswer(_ id: Int64, _ client: ClientAddress, _ key: String) async -> Response? {
        do {
            guard let earlier = try await onThread({ try store.earlierAnswer(assignmentId: id, idempotencyKey: key) }) else { return nil }
            return try answered(id, earlier)
        } catch let error as StoreError where error.kind == .conflict {
            return refuse(id, client, .conflict, "This recording was already sent for another question.")
        } catch {
            return failed(id, client, error)
        }
    }

    private func attach(_ file: URL, _ id: Int64, _ client: ClientAddress, _ key: String) async -> Response {
        do {
            let store = self.store, limit = Double(configuration.maxAnswerSeconds) + Self.limitSlack
            // Checking the assignment and the file is blocking work too; attaching runs its own off the pool.
            let attachment = try await onThread {
                try AnswerAttachment(file: file, assignmentId: id, idempotencyKey: key, maxDurationSeconds: limit, store: store)
            }
            return try answered(id, try await attachment.attach())
        } catch let error as RecordingError {
            return refuse(id, client, .badRequest, error.kind == .tooLong
                ? "The recording is longer than \(AnswerPages.clock(configuration.maxAnswerSeconds)). Please record a shorter answer."
                : "That was not a recording that could be played. Please record your answer again.", log: error.description)
        } catch let error as StoreError where error.kind == .notFound {
            // The question or assignment was deleted while the answer was arriving.
            onEvent(.refused(assignmentId: id, status: 404, reason: "the assignment was deleted while its answer arrived", client: client.text))
            return Responses.withdrawn()
        } catch let error as StoreError where error.kind == .conflict || error.kind == .alreadyStored {
            return refuse(id, client, .conflict, error.kind == .alreadyStored
                ? "This recording was sent before." : "This question has already been answered. Thank you!")
        } catch {
            return failed(id, client, error)
        }
    }

    /// The recording a browser stops at the limit runs a little over it.
    static let limitSlack = 5.0

    private var tooLargeMessage: String { "The recording is too large to send." }

    /// The client: the peer, or the address a trusted proxy forwarded.
    private func client(_ request: Request, _ context: ServeContext) -> ClientAddress {
        let forwarded = Self.forwardedFor.map { request.headers[values: $0] } ?? []
        return ClientAddress.resolve(peer: context.remoteAddress?.ipAddress, forwardedFor: forwarded, trusted: trusted)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")

    /// The assignment of the path's token, compared in constant time with the stored one.
    ///
    /// The miss limiter is asked before the store: a client already over its allowance for
    /// links that do not work gets its lookups one at a time, so a flood of guesses waits in
    /// its own line instead of filling the blocking threads every client's lookups share. It is
    /// still looked up: a real link opens from a limited address, and every token, well-formed
    /// or not, costs the same store read (a miss must not tell a malformed token by its time).
    private func link(_ context: ServeContext, for client: ClientAddress) async -> LinkedAssignment? {
        // Tokens are 32 hex digits; anything much longer is looked up cut short (it cannot match).
        let token = String((context.parameters.get("token") ?? "").prefix(64))
        guard misses.isRefusing(client.limitKey) else { return await lookUp(token) }
        return await missTurns.one(client.limitKey) { await lookUp(token) }
    }

    private func lookUp(_ token: String) async -> LinkedAssignment? {
        let store = self.store
        let found = try? await onThread { try store.linkedAssignment(token: token) }
        guard let found, ConstantTime.equal(found.linkToken, token) else { return nil }
        return found
    }

    private func answered(_ id: Int64, _ completed: CompletedRecording) throws -> Response {
        onEvent(.answered(assignmentId: id, recordingId: try completed.recording.storedId(),
                          seconds: completed.recording.durationSeconds, again: completed.isEarlierAnswer))
        return Responses.json(.ok, ["status": "answered", "message": "Thank you! Your answer was sent."])
    }

    private func refuse(_ id: Int64, _ client: ClientAddress, _ status: HTTPResponse.Status, _ message: String,
                        log: String? = nil) -> Response {
        onEvent(.refused(assignmentId: id, status: status.code, reason: log ?? message, client: client.text))
        return Responses.json(status, ["status": "refused", "message": message])
    }

    private func busy(_ id: Int64, _ client: ClientAddress) -> Response {
        onEvent(.refused(assignmentId: id, status: 429, reason: "other uploads for this link are still arriving", client: client.text))
        var response = Responses.json(.tooManyRequests, ["status": "refused",
                                                         "message": "Another upload for this link is still arriving. Please wait a moment and send again."])
        response.headers[.retryAfter] = "10"
        return response
    }

    private func limited(_ client: ClientAddress, _ refusal: RateLimiter.Refusal, what: String, json: Bool) -> Response {
        let seconds = max(1, Int(refusal.wait.rounded(.up)))
        if refusal.isFirst { onEvent(.limited(client: client.text, what: what, retryAfter: seconds)) }
        return Responses.tooManyRequests(retryAfter: seconds, json: json)
    }

    private func failed(_ id: Int64, _ client: ClientAddress, _ error: Error) -> Response {
        onEvent(.refused(assignmentId: id, status: 500, reason: "\(error)", client: client.text))
        return Responses.json(.internalServerError, ["status": "failed", "message": "The answer could not be saved. Please try again in a little while."])
    }

    /// The request's Idempotency-Key, or a fresh one when it has none (each such send is new);
    /// nil when the given one is unusable.
    static func idempotencyKey(_ request: Request) -> String? {
        guard let name = HTTPField.Name("Idempotency-Key"), let key = request.headers[name] else { return IdempotencyKey.fresh() }
        return IdempotencyKey.isUsable(key) ? key : nil
    }
}
