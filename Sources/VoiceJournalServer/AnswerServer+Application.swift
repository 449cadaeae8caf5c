import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import VoiceJournalStore
import VoiceJournalSystem

extension AnswerServer {
    /// The application `serve` runs: the routes, HTTP/1 with the request deadline and the idle
    /// timeout, and the connection cap. The executable runs it in a service group; tests drive
    /// it in-process (`app.test(.router)`). Clears what killed uploads left in `incoming/`,
    /// and counts the assignments waiting, for `.listening`.
    package func buildApplication(onEvent: @escaping @Sendable (Event) -> Void) async throws -> some ApplicationProtocol {
        let uploads = UploadReceiver(folder: incomingFolder, maxBytes: configuration.maxUploadBytes)
        try await onThread { uploads.removeLeftovers() }
        let store = self.store, configuration = self.configuration
        let waiting = try await onThread { try store.assignments(status: .pending).count }
        // Listening on every interface: 0.0.0.0 is no address a phone can open; this machine's name may be.
        let hostName = Self.isEveryInterface(configuration.host) ? try await onThread { ProcessInfo.processInfo.hostName } : ""
        let router = Self.buildRouter(AnswerRoutes(store: store, configuration: configuration, uploads: uploads, onEvent: onEvent))
        let connections = DescriptorBudget.connections(configured: configuration.maxConnections)
        if connections < configuration.maxConnections {
            onEvent(.warning("the open-file limit allows \(connections) connections at once, not \(configuration.maxConnections) "
                + "(raise it with `ulimit -n` or LimitNOFILE=)"))
        }
        let uploadTimeout = TimeAmount.nanoseconds(Int64(configuration.uploadTimeout * 1e9))
        let http = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadline(limit: uploadTimeout)],
                                              idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9)))
        return Application(
            router: router,
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: nil,
                                                    availableConnectionsDelegate: MaximumAvailableConnections(connections, logger: logger)),
            onServerRunning: { channel in
                onEvent(.listening(Listening(host: configuration.host, port: channel.localAddress?.port ?? 0,
                                             publicURL: configuration.publicURL, origin: configuration.publicURLOrigin,
                                             waiting: waiting, hostName: hostName)))
            },
            logger: logger)
    }

    /// The routes: a link's page and its upload, the page's script and style, and nothing else
    /// (every other path gets the one 404).
    static func buildRouter(_ routes: AnswerRoutes) -> Router<ServeContext> {
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
        return router
    }
}
