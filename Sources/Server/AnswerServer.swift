import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Store

/// `voicejournal serve`: the other end of an assignment's link. It serves the answer page
/// for a link token, takes the recording the page uploads, and stores it as the answer with
/// the same code as `answer --file`. It serves nothing else of the journal.
public struct AnswerServer: Sendable {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0: the system picks a free port (reported in `.listening`).
        public var port = 8787
        /// The longest answer, in seconds; the page stops recording there and the server refuses longer audio.
        public var maxAnswerSeconds = 180
        /// The most bytes one upload request may hold.
        public var maxUploadBytes: Int64 = 32_000_000
        /// The name the page shows as the one asking; nil: "A question for you".
        public var askedBy: String?
        /// Requests per minute from one address (pages and uploads alike).
        public var requestsPerMinute = 120
        /// Uploads per hour for one link.
        public var uploadsPerHour = 20

        public init() {}
    }

    /// What happens, for the executable to print.
    public enum Event: Sendable {
        /// The server listens on this address.
        case listening(host: String, port: Int)
        /// An answer was stored (or, `again`, a repeated send found the first one).
        case answered(assignmentId: Int64, recordingId: Int64, seconds: Double, again: Bool)
        /// An upload was refused, with the reason the client was given.
        case refused(assignmentId: Int64, status: Int, reason: String)
    }

    let store: JournalStore
    let configuration: Configuration
    let logger: Logger

    /// A server over `store`; `logger` gets what goes wrong inside requests.
    public init(store: JournalStore, configuration: Configuration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Where uploads are written while they arrive.
    public var incomingFolder: URL { store.home.url.appendingPathComponent("incoming") }

    /// Serves until SIGINT or SIGTERM, then stops taking connections, lets uploads in flight
    /// finish, and returns.
    public func run(onEvent: @escaping @Sendable (Event) -> Void) async throws {
        let uploads = UploadReceiver(folder: incomingFolder, maxBytes: configuration.maxUploadBytes)
        uploads.removeLeftovers()
        let routes = AnswerRoutes(store: store, configuration: configuration, uploads: uploads, onEvent: onEvent)
        let router = Router(context: ServeContext.self)
        router.middlewares.add(SecurityHeaders())
        router.get("/a/:token") { request, context in await routes.page(request, context: context) }
        router.post("/a/:token/answer") { request, context in await routes.answer(request, context: context) }
        router.get(RouterPath(PageAssets.scriptPath)) { _, _ in
            Responses.asset(PageAssets.script, type: "text/javascript; charset=utf-8")
        }
        router.get(RouterPath(PageAssets.stylePath)) { _, _ in
            Responses.asset(PageAssets.style, type: "text/css; charset=utf-8")
        }
        // Browsers ask for it; an empty answer keeps their consoles free of 404s.
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        let host = configuration.host
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in onEvent(.listening(host: host, port: channel.localAddress?.port ?? 0)) },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let error as IOError {
            throw ServeError(description: "cannot listen on \(host):\(configuration.port): "
                + String(cString: strerror(error.errnoCode)).lowercased())
        }
    }
}

/// The server could not start (the address is taken, or not this machine's).
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Runs a short blocking store call on NIO's thread pool, off the cooperative pool.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
