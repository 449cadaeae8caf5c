import Foundation
import HTTPTypes
import Hummingbird
import Pipeline
import Store

/// The two routes of a link: the page (`GET /a/<token>`) and its upload
/// (`POST /a/<token>/answer`). The token is the only credential and opens only its own
/// assignment; every link that does not work gets the same 404 page.
struct AnswerRoutes: Sendable {
    let store: JournalStore
    let configuration: AnswerServer.Configuration
    let uploads: UploadReceiver
    let onEvent: @Sendable (AnswerServer.Event) -> Void
    let perAddress: RateLimiter
    let perLink: RateLimiter

    init(store: JournalStore, configuration: AnswerServer.Configuration, uploads: UploadReceiver,
         onEvent: @escaping @Sendable (AnswerServer.Event) -> Void) {
        self.store = store
        self.configuration = configuration
        self.uploads = uploads
        self.onEvent = onEvent
        perAddress = RateLimiter(configuration.requestsPerMinute, per: 60, burst: configuration.requestsPerMinute)
        perLink = RateLimiter(configuration.uploadsPerHour, per: 3600, burst: configuration.uploadsPerHour)
    }

    /// The answer page, the thank-you page once answered, or the one 404 page.
    func page(_ request: Request, context: ServeContext) async -> Response {
        if let wait = perAddress.take(context.clientAddress) { return Responses.tooManyRequests(retryAfter: wait, json: false) }
        guard let linked = await link(context) else { return Responses.notFound() }
        if linked.isAnswered { return Responses.page(.ok, AnswerPages.thanks(question: linked.question)) }
        return Responses.page(.ok, AnswerPages.answer(question: linked.question, askedBy: configuration.askedBy,
                                                      uploadPath: "/a/\(linked.linkToken)/answer",
                                                      maxSeconds: configuration.maxAnswerSeconds))
    }

    /// Takes an upload: streamed to disk under the cap, then checked, hashed and stored as the
    /// answer by `AnswerAttachment` (as `answer --file` does), in one transaction.
    func answer(_ request: Request, context: ServeContext) async -> Response {
        if let wait = perAddress.take(context.clientAddress) { return Responses.tooManyRequests(retryAfter: wait, json: true) }
        guard let linked = await link(context) else { return Responses.notFound() }
        let id = linked.assignmentId
        if let wait = perLink.take(linked.linkToken) { return Responses.tooManyRequests(retryAfter: wait, json: true) }
        guard let key = Self.idempotencyKey(request) else {
            return refuse(id, .badRequest, "The upload's Idempotency-Key must be 1 to 200 printable characters.")
        }
        // A send repeated after a lost reply gets the first answer back, whatever it carries now.
        do {
            if let earlier = try await offPool({ try store.earlierAnswer(assignmentId: id, idempotencyKey: key) }) {
                return answered(id, earlier)
            }
        } catch let error as StoreError where error.kind == .conflict {
            return refuse(id, .conflict, "This recording was already sent for another question.")
        } catch {
            return failed(id, error)
        }
        if linked.isAnswered { return refuse(id, .conflict, "This question has already been answered. Thank you!") }
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > configuration.maxUploadBytes {
            return refuse(id, .contentTooLarge, tooLargeMessage)
        }

        let received: UploadReceiver.Received
        do {
            received = try await uploads.receive(request.body, contentType: request.headers[.contentType])
        } catch let refusal as UploadReceiver.Refusal {
            switch refusal {
            case .tooLarge: return refuse(id, .contentTooLarge, tooLargeMessage)
            case .malformed(let why): return refuse(id, .badRequest, "The upload could not be read: \(why).")
            case .noAudio: return refuse(id, .badRequest, "The upload holds no recording.")
            }
        } catch {
            return failed(id, error)
        }
        defer { try? FileManager.default.removeItem(at: received.file) }
        do {
            let attachment = try AnswerAttachment(file: received.file, assignmentId: id, idempotencyKey: key,
                                                  maxDurationSeconds: Double(configuration.maxAnswerSeconds) + Self.limitSlack,
                                                  store: store)
            return answered(id, try await attachment.attach())
        } catch let error as RecordingError {
            let tooLong = error.description.contains("longest answer")
            return refuse(id, .badRequest, tooLong
                ? "The recording is longer than \(AnswerPages.clock(configuration.maxAnswerSeconds)). Please record a shorter answer."
                : "That was not a recording that could be played. Please record your answer again.", log: error.description)
        } catch let error as StoreError where error.kind == .conflict || error.kind == .alreadyStored {
            return refuse(id, .conflict, error.kind == .alreadyStored
                ? "This recording was sent before." : "This question has already been answered. Thank you!")
        } catch {
            return failed(id, error)
        }
    }

    /// The recording a browser stops at the limit runs a little over it.
    static let limitSlack = 5.0

    private var tooLargeMessage: String { "The recording is too large to send." }

    /// The assignment of the path's token, compared in constant time with the stored one.
    private func link(_ context: ServeContext) async -> LinkedAssignment? {
        // Tokens are 32 hex digits; anything much longer is looked up cut short (it cannot match).
        let token = String((context.parameters.get("token") ?? "").prefix(64))
        let found = try? await offPool { try store.linkedAssignment(token: token) }
        guard let found, ConstantTime.equal(found.linkToken, token) else { return nil }
        return found
    }

    private func answered(_ id: Int64, _ completed: CompletedRecording) -> Response {
        onEvent(.answered(assignmentId: id, recordingId: completed.recording.id ?? 0,
                          seconds: completed.recording.durationSeconds, again: completed.isEarlierAnswer))
        return Responses.json(.ok, ["status": "answered", "message": "Thank you! Your answer was sent."])
    }

    private func refuse(_ id: Int64, _ status: HTTPResponse.Status, _ message: String, log: String? = nil) -> Response {
        onEvent(.refused(assignmentId: id, status: status.code, reason: log ?? message))
        return Responses.json(status, ["status": "refused", "message": message])
    }

    private func failed(_ id: Int64, _ error: Error) -> Response {
        onEvent(.refused(assignmentId: id, status: 500, reason: "\(error)"))
        return Responses.json(.internalServerError, ["status": "failed", "message": "The answer could not be saved. Please try again in a little while."])
    }

    /// The request's Idempotency-Key, or a fresh one when it has none (each such send is new);
    /// nil when the given one is unusable.
    static func idempotencyKey(_ request: Request) -> String? {
        guard let name = HTTPField.Name("Idempotency-Key"), let key = request.headers[name] else { return UUID().uuidString }
        guard (1...200).contains(key.count), !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return key
    }
}
