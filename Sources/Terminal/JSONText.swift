import Foundation

/// The one way voicejournal writes JSON: keys sorted (stable output to diff and test),
/// slashes unescaped (paths stay readable), dates as ISO 8601.
public enum JSONText {
    /// `value` as a JSON document: pretty-printed for `--json` listings and files, or on one
    /// line for a record that sits among other output.
    public static func encode<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
