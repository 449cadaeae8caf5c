import Foundation

/// The key that makes sending an answer again safe (`answer --idempotency-key`, an upload's
/// `Idempotency-Key` header): the same key for the same assignment gets the first recording
/// back. One rule for both, so a key the command takes is a key the server takes.
package enum IdempotencyKey {
    /// The longest key taken, in characters.
    package static let maxLength = 200

    /// True for 1 to `maxLength` characters with no control character among them: a key
    /// that can be stored, printed and sent in a header as it is.
    package static func isUsable(_ key: String) -> Bool {
        (1...maxLength).contains(key.count) && !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    }

    /// A key for a submission sent without one: new, so it never finds an earlier answer.
    package static func fresh() -> String { UUID().uuidString }
}
