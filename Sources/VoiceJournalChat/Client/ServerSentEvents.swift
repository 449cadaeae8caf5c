import Foundation

/// Reads a stream of server-sent events (the `text/event-stream` of a streamed chat
/// completion) as it arrives: bytes in, each event's data out. Events end at a blank line;
/// a line `data: x` adds `x` to the event's data (lines joined by `\n`); comments (`:`) and
/// other fields are passed over; `\r\n` and `\r` end lines as `\n` does.
///
/// Bounded: an event whose data grows past `limit` bytes without ending is cut there and
/// marked, so a server that never sends a blank line cannot hold the whole stream in one event.
public struct ServerSentEvents: Sendable {
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var lastWasCR = false
    /// The most bytes one event's data may hold.
    public let limit: Int
    /// Whether an event was cut at `limit`.
    public private(set) var overflowed = false

    public init(limit: Int = 1 << 20) { self.limit = limit }

    /// Reads `bytes`; returns the data of each event they completed, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
        var events: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = endLine() { events.append(event) }
            } else if line.count < limit {
                line.append(byte)
            } else {
                overflowed = true
            }
        }
        return events
    }

    /// The event the stream ended in the middle of, if its data had begun (a stream cut off
    /// without its blank line).
    public mutating func finish() -> String? {
        if !line.isEmpty { _ = endLine() }
        guard hasData else { return nil }
        defer { (data, hasData) = ([], false) }
        return String(decoding: data, as: UTF8.self)
    }

    private mutating func endLine() -> String? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            guard hasData else { return nil }
            defer { (data, hasData) = ([], false) }
            return String(decoding: data, as: UTF8.self)
        }
        guard line.starts(with: Array("data".utf8)) else { return nil }
        var value = line.dropFirst(4)
        if let first = value.first {
            guard first == UInt8(ascii: ":") else { return nil } // "dataX: …" is another field
            value = value.dropFirst()
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        }
        if hasData { data.append(UInt8(ascii: "\n")) }
        data.append(contentsOf: value.prefix(max(0, limit - data.count)))
        if data.count >= limit { overflowed = true }
        hasData = true
        return nil
    }
}
