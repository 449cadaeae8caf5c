import Foundation

/// Reads a `multipart/form-data` body as it arrives, chunk by chunk, so a part's bytes can go
/// straight to disk: no part, however large, is held whole in memory. Pure: bytes in, events
/// out, tested without a network.
struct MultipartReader {
    /// What the bytes fed so far held, in order.
    enum Event: Equatable {
        /// A part begins; `name` and `filename` come from its Content-Disposition.
        case partStart(name: String?, filename: String?, contentType: String?)
        /// Bytes of the current part's content (a part's content may come in many pieces).
        case content([UInt8])
        /// The current part ended.
        case partEnd
        /// The closing delimiter was read; anything after it is ignored.
        case finished
    }

    /// A body that does not follow the format.
    struct Malformed: Error, Equatable {
        let reason: String
    }

    private enum State { case preamble, afterDelimiter, headers, content, epilogue }

    /// `\r\n--boundary`: the body is read as if it started with a line break, so the first
    /// delimiter looks like every other one.
    private let delimiter: [UInt8]
    private var pending: [UInt8] = Array("\r\n".utf8)
    private var state = State.preamble
    /// The most a part's header block may hold.
    static let maxHeaderBytes = 8192

    /// The boundary of a Content-Type such as `multipart/form-data; boundary=----x`, or nil
    /// when the type is not multipart/form-data or names no usable boundary.
    static func boundary(contentType: String) -> String? {
        let fields = HeaderValue(contentType)
        guard fields.value.lowercased() == "multipart/form-data", let boundary = fields.parameters["boundary"],
              (1...70).contains(boundary.utf8.count) else { return nil }
        return boundary
    }

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// True once the closing delimiter was read.
    var isFinished: Bool { state == .epilogue }

    /// Reads `bytes` and returns what they completed. Bytes that could still be the start
    /// of a delimiter are kept back until the next call.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Malformed) -> [Event] {
        guard state != .epilogue else { return [] }
        pending.append(contentsOf: bytes)
        var events: [Event] = []
        var progressed = true
        while progressed {
            progressed = false
            switch state {
            case .preamble:
                if let found = find(delimiter) {
                    pending.removeSubrange(0..<found + delimiter.count)
                    state = .afterDelimiter
                    progressed = true
                } else {
                    keepPossibleDelimiterStart(emitting: nil)
                }
            case .afterDelimiter:
                guard pending.count >= 2 else { break }
                if pending[0] == UInt8(ascii: "-"), pending[1] == UInt8(ascii: "-") {
                    state = .epilogue
                    pending = []
                    events.append(.finished)
                } else if pending[0] == UInt8(ascii: "\r"), pending[1] == UInt8(ascii: "\n") {
                    pending.removeFirst(2)
                    state = .headers
                    progressed = true
                } else {
                    throw Malformed(reason: "a delimiter is followed by neither a line break nor --")
                }
            case .headers:
                guard let end = headerEnd() else {
                    if pending.count > Self.maxHeaderBytes { throw Malformed(reason: "a part's headers are too long") }
                    break
                }
                events.append(try Self.partStart(pending[0..<end.headers]))
                pending.removeSubrange(0..<end.content)
                state = .content
                progressed = true
            case .content:
                if let found = find(delimiter) {
                    if found > 0 { events.append(.content(Array(pending[0..<found]))) }
                    events.append(.partEnd)
                    pending.removeSubrange(0..<found + delimiter.count)
                    state = .afterDelimiter
                    progressed = true
                } else {
                    keepPossibleDelimiterStart { events.append(.content($0)) }
                }
            case .epilogue:
                pending = []
            }
        }
        return events
    }

    /// Drops (or hands on) all pending bytes but the last few, which could begin a delimiter.
    private mutating func keepPossibleDelimiterStart(emitting emit: (([UInt8]) -> Void)?) {
        let keep = delimiter.count - 1
        guard pending.count > keep else { return }
        let cut = pending.count - keep
        emit?(Array(pending[0..<cut]))
        pending.removeSubrange(0..<cut)
    }

    /// Where the header block ends: its own length and where the content starts.
    private func headerEnd() -> (headers: Int, content: Int)? {
        if pending.count >= 2, pending[0] == UInt8(ascii: "\r"), pending[1] == UInt8(ascii: "\n") { return (0, 2) }
        return find(Array("\r\n\r\n".utf8)).map { ($0, $0 + 4) }
    }

    /// The first index of `needle` in the pending bytes.
    private func find(_ needle: [UInt8]) -> Int? {
        guard let first = needle.first, pending.count >= needle.count else { return nil }
        var index = 0
        let last = pending.count - needle.count
        while index <= last {
            if pending[index] == first, pending[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func partStart(_ block: ArraySlice<UInt8>) throws(Malformed) -> Event {
        var disposition: HeaderValue?
        var contentType: String?
        for line in String(decoding: block, as: UTF8.self).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(reason: "a part's header line has no colon") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-disposition": disposition = HeaderValue(value)
            case "content-type": contentType = value
            default: break
            }
        }
        return .partStart(name: disposition?.parameters["name"], filename: disposition?.parameters["filename"],
                          contentType: contentType)
    }
}

/// A header value with parameters: `form-data; name="audio"; filename="a.webm"`.
struct HeaderValue {
    let value: String
    /// Parameter names lowercased; quoted values unquoted.
    let parameters: [String: String]

    init(_ text: String) {
        var pieces = Self.split(text)
        value = pieces.isEmpty ? "" : pieces.removeFirst().trimmingCharacters(in: .whitespaces)
        var parameters: [String: String] = [:]
        for piece in pieces {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            parameters[name] = value
        }
        self.parameters = parameters
    }

    /// Splits at semicolons outside quotes.
    private static func split(_ text: String) -> [String] {
        var pieces: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }
}
