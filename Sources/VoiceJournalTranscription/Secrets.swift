import Foundation

/// The secrets a client configuration holds — the API key and the credentials in the base
/// URL (`https://user:pass@host/v1`) — and the one function that takes them out of text
/// before it is shown, logged or stored. Only the request itself carries them.
package struct Secrets: Sendable {
    /// What replaces a secret quoted as it is (a server echoing the key it was sent).
    static let mark = "[redacted]"
    /// What replaces the credentials of a URL (`http://***@host/v1`).
    static let credentialsMark = "***"

    /// Every spelling of a secret that could turn up in text, longest first so a whole
    /// `user:pass` goes before its password alone.
    private let literals: [String]

    package init(apiKey: String?, baseURL: String) {
        var literals: [String] = []
        if let apiKey { literals.append(apiKey) }
        if let userinfo = Self.userinfo(of: baseURL) {
            // Without a password the user is the secret (`https://TOKEN@host`).
            let secret = userinfo.firstIndex(of: ":").map { String(userinfo[userinfo.index(after: $0)...]) } ?? userinfo
            for text in [userinfo, secret] {
                literals.append(text)
                if let decoded = text.removingPercentEncoding { literals.append(decoded) }
            }
        }
        // Short fragments would garble ordinary words; URLs are caught by their shape anyway.
        self.literals = Set(literals.filter { $0.count >= 4 }).sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced and the credentials of any URL in it removed.
    package func redact(_ text: String) -> String {
        var result = text
        for secret in literals where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mark)
        }
        return Self.withoutURLCredentials(result)
    }

    /// `text` with the userinfo of every URL in it (`scheme://userinfo@`) replaced by `***`,
    /// whoever's credentials they are.
    static func withoutURLCredentials(_ text: String) -> String {
        guard text.contains("@") else { return text }
        return text.replacing(/([A-Za-z][A-Za-z0-9+.\-]*:\/\/)[^\/?#@\s]+@/) { match in
            "\(match.output.1)\(credentialsMark)@"
        }
    }

    /// The raw (still percent-encoded) userinfo of a URL, if it has any.
    private static func userinfo(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let authority = url[scheme.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = String(authority[..<at])
        return userinfo.isEmpty ? nil : userinfo
    }
}
