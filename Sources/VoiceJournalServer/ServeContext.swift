import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of `serve`: Hummingbird's core storage plus the client's address,
/// which the per-address rate limit counts by.
struct ServeContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address as text ("unknown" if the socket did not say).
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
}

/// Adds the security headers to every response, and turns whatever a route threw (the
/// router's own 404 included) into a plain page, so no error reaches the client unheaded.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ServeContext

    /// No script but the page's own file, no inline style, no other origin, no framing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "media-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func handle(_ request: Request, context: ServeContext,
                next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError where error.status == .notFound || error.status == .methodNotAllowed {
            // An upload anywhere that is no link's gets the same JSON as one to an unknown link.
            response = request.method == .post ? Responses.withdrawn() : Responses.notFound()
        } catch {
            context.logger.error("request failed: \(error)")
            response = Responses.page(.internalServerError, AnswerPages.problem("Something went wrong", "Please try again in a little while."))
        }
        Self.add(to: &response.headers)
        return response
    }

    static func add(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[Self.referrerPolicy] = "no-referrer"
        headers[Self.frameOptions] = "DENY"
        headers[.cacheControl] = "no-store"
        headers[Self.permissionsPolicy] = "microphone=(self), camera=(), geolocation=()"
        headers[Self.openerPolicy] = "same-origin"
        headers[Self.resourcePolicy] = "same-origin"
    }

    // Header names HTTPTypes has no constant for; each is a valid token, so the
    // initialiser cannot fail (the fallback is never used).
    static let referrerPolicy = HTTPField.Name("Referrer-Policy") ?? .cacheControl
    static let frameOptions = HTTPField.Name("X-Frame-Options") ?? .cacheControl
    static let permissionsPolicy = HTTPField.Name("Permissions-Policy") ?? .cacheControl
    static let openerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy") ?? .cacheControl
    static let resourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy") ?? .cacheControl
}

/// The kinds of response `serve` sends.
enum Responses {
    static func page(_ status: HTTPResponse.Status, _ html: String) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func notFound() -> Response { page(.notFound, AnswerPages.notFound) }

    /// A JSON reply to an upload: `{"status": ..., "message": ...}`.
    static func json(_ status: HTTPResponse.Status, _ fields: [String: String]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 429 whose message and `Retry-After` say the real wait.
    static func tooManyRequests(retryAfter seconds: Int, json: Bool) -> Response {
        let wait = waitText(seconds)
        var response = json
            ? Self.json(.tooManyRequests, ["status": "refused", "message": "Too many tries. Please wait \(wait) and send again."])
            : page(.tooManyRequests, AnswerPages.problem("Too many requests", "Please wait \(wait) and open the link again."))
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// "40 seconds", "a minute", "3 minutes" (rounded up: never shorter than the real wait).
    static func waitText(_ seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "a second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }

    /// The reply to an upload for a link that does not work (never did, or was withdrawn
    /// while the answer arrived): JSON, so the page can show it.
    static func withdrawn() -> Response {
        json(.notFound, ["status": "withdrawn",
                         "message": "This link does not work any more: it was withdrawn, or not copied whole. "
                            + "Please ask the person who sent it for a new one."])
    }

    /// The same response without its body, for HEAD (its headers still say the body's length).
    static func headOnly(_ response: Response) -> Response {
        Response(status: response.status, headers: response.headers, body: ResponseBody())
    }
}
