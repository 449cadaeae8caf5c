import Foundation

/// Who sent a request: the socket's peer, or — when the peer is a proxy the user named with
/// `--trusted-proxy` — the address that proxy saw, from `X-Forwarded-For`. Only a trusted
/// proxy's header counts: anyone else could write any address there.
struct ClientAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address in its canonical text form ("203.0.113.7", "2001:db8::1").
    let text: String

    var description: String { text }

    /// What rate limits count by: the address itself, or for IPv6 its /64 (one household or
    /// host is usually given a whole /64, so its addresses are one client).
    var limitKey: String {
        guard text.contains(":"), let bytes = Self.bytes(of: text), bytes.count == 16 else { return text }
        return bytes.prefix(8).map { String(format: "%02x", $0) }.joined() + "::/64"
    }

    /// The client of a request from `peer` carrying `forwardedFor` (every X-Forwarded-For
    /// value, in order). From a trusted peer, the right-most address that is not itself
    /// trusted: each proxy appends the address it saw, so that one was written by ours.
    static func resolve(peer: String?, forwardedFor: [String], trusted: Set<String>) -> ClientAddress {
        let peer = peer.flatMap(canonical) ?? "unknown"
        guard trusted.contains(peer) else { return ClientAddress(text: peer) }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // An entry that is not an address (a proxy's "unknown", a typo) ends the trail: what
            // lies left of it cannot be trusted either.
            guard let address = canonical(Self.withoutPort(hop)) else { break }
            if !trusted.contains(address) { return ClientAddress(text: address) }
        }
        return ClientAddress(text: peer)
    }

    /// The canonical form of an IP address, or nil when `text` is not one. IPv4 addresses
    /// mapped into IPv6 (`::ffff:192.0.2.1`, how a dual-stack socket reports them) are IPv4.
    static func canonical(_ text: String) -> String? {
        guard let bytes = bytes(of: text) else { return nil }
        if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes.suffix(4).map(String.init).joined(separator: ".")
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return bytes.withUnsafeBytes { raw -> String? in
            guard inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil else {
                return nil
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    private static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// "203.0.113.7:4711" → "203.0.113.7"; "[2001:db8::1]:443" → "2001:db8::1".
    private static func withoutPort(_ hop: String) -> String {
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            return String(hop[hop.index(after: hop.startIndex)..<close])
        }
        if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }
}
