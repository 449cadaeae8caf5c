import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import VoiceJournalStore
import VoiceJournalSystem

/// `voicejournal serve`: the other end of an assignment's link. It serves the answer page
/// for a link token, takes the recording the page uploads, and stores it as the answer with
/// the same code as `answer --file`. It serves nothing else of the journal.
package struct AnswerServer: Sendable {
    /// How the server listens and what it accepts.
    package struct Configuration: Sendable {
        package var host: String
        /// 0: the system picks a free port (reported in `.listening`).
        package var port: Int
        /// The longest answer, in seconds; the page stops recording there and the server refuses longer audio.
        package var maxAnswerSeconds: Int
        /// The most bytes one upload request may hold.
        package var maxUploadBytes: Int64
        /// The name the page shows as the one asking; nil: "A question for you".
        package var askedBy: String?
        /// Where links point from outside (`--public-url`); nil: where the server listens.
        package var publicURL: String?
        /// What set `publicURL`, in the user's words (`--public-url`, the variable, the config
        /// file's `public_url`), for the line that says links point elsewhere.
        package var publicURLOrigin: String?
        /// Requests per minute for one link (its page and uploads), and per client for links
        /// that do not work: a stranger trying tokens never uses up a real link's allowance.
        package var requestsPerMinute: Int
        /// Uploads per hour for one link.
        package var uploadsPerHour: Int
        /// Proxies whose `X-Forwarded-For` names the client (IP addresses); from anyone else the
        /// header is ignored.
        package var trustedProxies: [String]
        /// Seconds a connection may stay open without a request under way; a request head that
        /// takes longer to arrive is cut off too.
        package var idleTimeout: Double
        /// Seconds a whole request, its body included, may take to arrive.
        package var uploadTimeout: Double
        /// Seconds uploads in flight are given to finish after SIGTERM or SIGINT.
        package var shutdownTimeout: Double
        /// The most connections open at once (lowered to what the descriptor limit allows).
        package var maxConnections: Int

        /// `serve`'s defaults, or what its options say.
        package init(host: String = "127.0.0.1", port: Int = 8787, maxAnswerSeconds: Int = 180, maxUploadBytes: Int64 = 32_000_000,
                    askedBy: String? = nil, publicURL: String? = nil, requestsPerMinute: Int = 120, uploadsPerHour: Int = 20,
                    trustedProxies: [String] = [], idleTimeout: Double = 30, uploadTimeout: Double = 300,
                    shutdownTimeout: Double = 30, maxConnections: Int = 256) {
            self.host = host
            self.port = port
            self.maxAnswerSeconds = maxAnswerSeconds
            self.maxUploadBytes = maxUploadBytes
            self.askedBy = askedBy
            self.publicURL = publicURL
            self.requestsPerMinute = requestsPerMinute
            self.uploadsPerHour = uploadsPerHour
            self.trustedProxies = trustedProxies
            self.idleTimeout = idleTimeout
            self.uploadTimeout = uploadTimeout
            self.shutdownTimeout = shutdownTimeout
            self.maxConnections = maxConnections
        }
    }

    let store: JournalStore
    let configuration: Configuration
    let logger: Logger

    /// A server over `store`; `logger` gets what goes wrong inside requests.
    package init(store: JournalStore, configuration: Configuration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether `text` is an IP address (what `--trusted-proxy` takes).
    package static func isIPAddress(_ text: String) -> Bool { ClientAddress.canonical(text) != nil }

    /// Whether `host` means every interface (0.0.0.0, ::): an address to listen on, never one to open.
    package static func isEveryInterface(_ host: String) -> Bool {
        ClientAddress.canonical(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))).map { $0 == "0.0.0.0" || $0 == "::" } ?? false
    }

    /// Where uploads are written while they arrive.
    package var incomingFolder: URL { store.home.url.appendingPathComponent("incoming") }

    /// Serves until SIGINT or SIGTERM, then stops taking connections, lets uploads in flight
    /// finish, and returns.
    func run(onEvent: @escaping @Sendable (Event) -> Void) async throws {
        let host = configuration.host
        do {
            let app = try await buildApplication(onEvent: onEvent)
            // Stopping waits for uploads in flight, up to the shutdown timeout; then they are cut off.
            var group = ServiceGroupConfiguration(services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = .nanoseconds(Int64(configuration.shutdownTimeout * 1e9))
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError {
            throw ServeError(.cannotListen, "cannot listen on \(host):\(configuration.port): "
                + SystemError.text(error.errnoCode).lowercased())
        } catch is SocketAddressError.UnknownHost {
            throw ServeError(.unknownHost, "cannot listen on \(host): no such address or host name (give an IP address of this machine, e.g. 127.0.0.1)")
        } catch is SocketAddressError {
            throw ServeError(.notAnAddress, "cannot listen on \(host): not an address this machine can listen on (give an IP address, e.g. 127.0.0.1)")
        }
    }
}
