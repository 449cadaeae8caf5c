import Foundation

/// The one way voicejournal writes JSON: keys sorted (stable output to diff and test),
/// slashes unescaped (paths stay readable), dates as ISO 8601.
package enum JSONText {
    /// `value` as a JSON document: pretty-printed for `--json` listings and files, or on one
    /// line for a record that sits among other output.
    package static func encode<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A pretty-printed JSON array written element by element, as `JSONText.encode` would print
/// the whole array (the same bytes), without holding it: a listing or an export of any size
/// takes the memory of one element. `indent` is the indentation of the line the array opens on.
package struct JSONArrayStream {
    private let write: (String) throws -> Void
    private let indent: String
    private let encoder: JSONEncoder
    private var count = 0

    /// A stream handing its text to `write`; nothing is written until the first element or `finish()`.
    package init(indent: String = "", write: @escaping (String) throws -> Void) {
        self.write = write
        self.indent = indent
        encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
    }

    /// Writes `value` as the array's next element.
    package mutating func append<Value: Encodable>(_ value: Value) throws {
        let encoded = try encoder.encode(value)
        // A pretty-printed document's lines (strings never hold a raw line break) indented one
        // level deeper than the array.
        let prefix = Array((indent + "  ").utf8)
        var element = Array((count == 0 ? "[\n" : ",\n").utf8) + prefix
        element.reserveCapacity(encoded.count + encoded.count / 4)
        var previous: UInt8 = 0
        for byte in encoded {
            // A line starts: indented, unless it is the blank line of an empty array.
            if previous == UInt8(ascii: "\n"), byte != UInt8(ascii: "\n") { element += prefix }
            element.append(byte)
            previous = byte
        }
        try write(String(decoding: element, as: UTF8.self))
        count += 1
    }

    /// Closes the array (an empty one as the encoder prints it: `[`, a blank line, `]`).
    package func finish() throws {
        try write(count == 0 ? "[\n\n\(indent)]" : "\n\(indent)]")
    }
}
