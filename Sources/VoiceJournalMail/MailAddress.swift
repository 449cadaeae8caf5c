import Foundation

/// An email address and the name shown with it: `Zoë Łukasiewicz <zoe@example.org>`.
/// Checked when made: an address is `local@domain` in ASCII (RFC 5321's dot-atom local part, a
/// host name's labels), a name has no line break or other control character. What passes
/// cannot add a header or a recipient to a message, whatever it came from.
public struct MailAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `local@domain`, as given (the domain lowercased).
    public let address: String
    /// The name shown with it; nil: none.
    public let displayName: String?

    /// The longest address taken (RFC 5321's path limit less the brackets).
    public static let longestAddress = 254
    /// The longest display name taken, in characters.
    public static let longestName = 200

    /// The address `address` with `displayName`; throws `invalidAddress` saying what is wrong.
    public init(_ address: String, displayName: String? = nil) throws(MailError) {
        self.address = try Self.checked(address)
        if let displayName {
            let trimmed = displayName.trimmingCharacters(in: .whitespaces)
            if let problem = HeaderText.problem(in: displayName) {
                throw MailError(kind: .invalidAddress, description: "the name for \(self.address) \(problem)")
            }
            guard trimmed.count <= Self.longestName else {
                throw MailError(kind: .invalidAddress, description: "the name for \(self.address) is longer than \(Self.longestName) characters")
            }
            self.displayName = trimmed.isEmpty ? nil : trimmed
        } else {
            self.displayName = nil
        }
    }

    /// The domain part (after the `@`): the Message-ID's right side for a sender.
    public var domain: String { String(address[address.index(after: address.lastIndex(of: "@")!)...]) }

    /// `Name <address>` (the name as written), or the address alone.
    public var description: String { displayName.map { "\($0) <\(address)>" } ?? address }

    /// Why `text` is not an address voicejournal sends to; nil when it is one.
    public static func problem(_ text: String) -> String? {
        do {
            _ = try checked(text)
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: - Checks

    /// RFC 5322's atext: what a dot-atom's atoms are made of.
    static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".unicodeScalars)

    private static func checked(_ text: String) throws(MailError) -> String {
        let shown = HeaderText.shown(text)
        if let problem = HeaderText.problem(in: text) {
            throw MailError(kind: .invalidAddress, description: "the address \(shown) \(problem)")
        }
        guard !text.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw MailError(kind: .invalidAddress, description: "the address \(shown) holds a space")
        }
        guard text.unicodeScalars.allSatisfy(\.isASCII) else {
            throw MailError(kind: .invalidAddress, description:
                "the address \(shown) holds characters outside ASCII; give its ASCII form (an internationalised domain as xn--…)")
        }
        guard let at = text.lastIndex(of: "@"), text.firstIndex(of: "@") == at else {
            throw MailError(kind: .invalidAddress, description: "the address \(shown) must have the form name@domain, with one @")
        }
        let local = text[..<at], domain = text[text.index(after: at)...]
        guard !local.isEmpty, local.count <= 64,
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
              local.unicodeScalars.allSatisfy({ $0 == "." || atext.contains($0) }) else {
            throw MailError(kind: .invalidAddress, description:
                "the address \(shown) has a name part (before the @) an address cannot have")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !domain.isEmpty, domain.count <= 253, labels.allSatisfy(isHostLabel) else {
            throw MailError(kind: .invalidAddress, description:
                "the address \(shown) has a domain (after the @) that is no host name, such as example.org")
        }
        guard text.count <= longestAddress else {
            throw MailError(kind: .invalidAddress, description: "the address \(shown) is longer than \(longestAddress) characters")
        }
        return "\(local)@\(domain.lowercased())"
    }

    private static func isHostLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
            && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
