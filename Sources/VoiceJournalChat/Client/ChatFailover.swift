/// One request on a pool of chat servers, the preferred first: a server that fails in a way
/// the next might not (`ChatError.passesToNextServer`) passes the request on; the last
/// server's error, or any error that is not the server's, is the caller's.
public enum ChatFailover {
    /// `ask`'s answer from the first of `servers` (at least one) that gives one; `passed` is
    /// told each hand-over (from, to, why) as it happens.
    public static func first<Server, Answer>(of servers: [Server], ask: (Server) throws -> Answer,
                                             passed: (_ from: Server, _ to: Server, ChatError) -> Void) throws -> Answer {
        for (index, server) in servers.enumerated() {
            do {
                return try ask(server)
            } catch let error as ChatError where index + 1 < servers.count && error.passesToNextServer {
                passed(server, servers[index + 1], error)
            }
        }
        preconditionFailure("the last server's error is thrown above")
    }
}

extension ChatError {
    /// Whether the pool's next server is asked after a request failed this way: one that
    /// cannot be reached, refuses the key or keeps failing may be this server's trouble alone;
    /// a request it refused for what it is (too long, malformed) would be refused by the next
    /// too, and a stopped run is stopped.
    public var passesToNextServer: Bool {
        kind != .cancelled && (kind == .unreachable || disposition != .giveUp)
    }
}
