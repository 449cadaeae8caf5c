import Foundation
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request is not fully received within `limit` of its head: a body
/// sent a byte at a time keeps a connection busy (each byte resets the idle timer) for as
/// long as the client likes; this bounds it.
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

/// How many connections `serve` holds open at once: the configured cap, kept below what the
/// process's descriptor limit allows. Past the cap new connections wait in the kernel's
/// backlog instead of being accepted, so the server never runs out of descriptors (running
/// out makes `accept` fail over and over) and the database and uploads always have some.
enum DescriptorBudget {
    /// Raises the soft limit on open files towards the hard one (most systems start at 1024
    /// while allowing far more), then returns the connections that fit: two descriptors each
    /// (the socket and, for an upload, its file) after a reserve for the database, logs,
    /// threads and the decoder.
    static func connections(configured: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return configured }
        let wanted = rlim_t(65_536)
        if limit.rlim_cur < wanted && limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(min(limit.rlim_cur, rlim_t(Int32.max)))
        let reserve = min(256, max(32, available / 4))
        return max(1, min(configured, (available - reserve) / 2))
    }
}
