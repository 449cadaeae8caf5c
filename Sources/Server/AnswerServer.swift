import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
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
        /// Requests per minute for one link (its page and uploads), and per client for links
        /// that do not work: a stranger trying tokens never uses up a real link's allowance.
        public var requestsPerMinute = 120
        /// Uploads per hour for one link.
        public var uploadsPerHour = 20
        /// Proxies whose `X-Forwarded-For` names the client (IP addresses); from anyone else the
        /// header is ignored.
        public var trustedProxies: [String] = []
        /// Seconds a connection may stay open without a request under way; a request head that
        /// takes longer to arrive is cut off too.
        public var idleTimeout = 30.0
        /// Seconds a whole request, its body included, may take to arrive.
        public var uploadTimeout = 300.0
        /// Seconds uploads in flight are given to finish after SIGTERM or SIGINT.
        public var shutdownTimeout = 30.0
        /// The most connections open at once (lowered to what the descriptor limit allows).
        public var maxConnections = 256

        public init() {}
    }

    /// What happens, for the executable to print.
    public enum Event: Sendable {
        /// The server listens on this address.
        case listening(host: String, port: Int)
        /// An answer was stored (or, `again`, a repeated send found the first one).
        case answered(assignmentId: Int64, recordingId: Int64, seconds: Double, again: Bool)
        /// An upload was refused, with the reason (what the client was told, or what went wrong).
        case refused(assignmentId: Int64, status: Int, reason: String, client: String)
        /// A client was asked to wait (429): the first refusal of a run of them, not each one.
        case limited(client: String, what: String, retryAfter: Int)
        /// A warning about how the server was started.
        case warning(String)
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

    /// Whether `text` is an IP address (what `--trusted-proxy` takes).
    public static func isIPAddress(_ text: String) -> Bool { ClientAddress.canonical(text) != nil }

    /// Whether `host` means every interface (0.0.0.0, ::): an address to listen on, never one to open.
    public static func isEveryInterface(_ host: String) -> Bool {
        ClientAddress.canonical(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))).map { $0 == "0.0.0.0" || $0 == "::" } ?? false
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
        // HEAD is GET without the body (link checkers and previews ask for it).
        router.head("/a/:token") { request, context in Responses.headOnly(await routes.page(request, context: context)) }
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
        let connections = DescriptorBudget.connections(configured: configuration.maxConnections)
        if connections < configuration.maxConnections {
            onEvent(.warning("the open-file limit allows \(connections) connections at once, not \(configuration.maxConnections) "
                + "(raise it with `ulimit -n` or LimitNOFILE=)"))
        }
        let uploadTimeout = TimeAmount.nanoseconds(Int64(configuration.uploadTimeout * 1e9))
        let http = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadline(limit: uploadTimeout)],
                                              idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9)))
        let app = Application(
            router: router,
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil,
                                                    availableConnectionsDelegate: MaximumAvailableConnections(connections, logger: logger)),
            onServerRunning: { channel in onEvent(.listening(host: host, port: channel.localAddress?.port ?? 0)) },
            logger: logger)
        // Stopping waits for uploads in flight, up to the shutdown timeout; then they are cut off.
        var group = ServiceGroupConfiguration(services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .nanoseconds(Int64(configuration.shutdownTimeout * 1e9))
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError {
            throw ServeError(.cannotListen, "cannot listen on \(host):\(configuration.port): "
                + String(cString: strerror(error.errnoCode)).lowercased())
        } catch is SocketAddressError.UnknownHost {
            throw ServeError(.unknownHost, "cannot listen on \(host): no such address or host name (give an IP address of this machine, e.g. 127.0.0.1)")
        } catch is SocketAddressError {
            throw ServeError(.notAnAddress, "cannot listen on \(host): not an address this machine can listen on (give an IP address, e.g. 127.0.0.1)")
        }
    }
}

/// The server could not start (the address is taken, or not this machine's), worded for the
/// user, with a kind callers decide by. Every kind is a configuration error (exit 3): the
/// machine cannot serve where it was asked to.
public struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case cannotListen, unknownHost, notAnAddress
        }
        private let code: Code

        /// Binding the socket failed (the port is taken, or not ours to use).
        public static let cannotListen = Kind(code: .cannotListen)
        /// `--host` is a name that resolves to nothing.
        public static let unknownHost = Kind(code: .unknownHost)
        /// `--host` is not an address this machine can listen on.
        public static let notAnAddress = Kind(code: .notAnAddress)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Runs a short blocking store call on NIO's thread pool, off the cooperative pool.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(work)
}
