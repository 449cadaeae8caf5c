import Foundation

/// Header values as RFC 5322 and RFC 2047 want them: checked for what would break a header
/// (a line break starts a new one), non-ASCII text as UTF-8 encoded words, long values folded
/// into lines of at most 78 characters, dates in RFC 5322's form.
enum HeaderText {
    /// The longest header line written, its CRLF left out (RFC 5322's "SHOULD" limit).
    static let lineLimit = 78

    /// What is wrong with `text` as (part of) a header value, as the end of a sentence
    /// ("holds a line break"); nil when nothing is. Any control character is refused, the
    /// line breaks among them, and Unicode's own line and paragraph separators.
    static func problem(in text: String) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}": return "holds a line break"
            case _ where scalar.properties.generalCategory == .control: return "holds a control character (U+\(hex(scalar)))"
            default: continue
            }
        }
        return nil
    }

    /// `text` quoted for a message, escaped and cut short: what the user gave, safe to print.
    static func shown(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(77)) + "..." : text
        return cut.debugDescription
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Encoded words

    /// The most bytes of text one encoded word carries: `=?UTF-8?B?` + 56 base64 characters +
    /// `?=` is 68, within RFC 2047's 75, and `Subject: ` and a word fit a line of 78.
    static let bytesPerWord = 42

    /// `text` as UTF-8 `B` encoded words (RFC 2047), each whole characters only (a character
    /// is never split between two words, as RFC 2047 §5 requires), in order.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var bytes: [UInt8] = []
        func flush() {
            if !bytes.isEmpty { words.append("=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?=") }
            bytes.removeAll()
        }
        for character in text {
            let piece = Array(String(character).utf8)
            if piece.count > bytesPerWord {
                // A cluster longer than a word (a long run of combining marks): its scalars, each whole.
                flush()
                for scalar in character.unicodeScalars {
                    let scalarBytes = Array(String(scalar).utf8)
                    if bytes.count + scalarBytes.count > bytesPerWord { flush() }
                    bytes += scalarBytes
                }
                continue
            }
            if bytes.count + piece.count > bytesPerWord { flush() }
            bytes += piece
        }
        flush()
        return words
    }

    /// Whether `text` can stand in a header as it is: printable ASCII, no `=?` (which a reader
    /// could take for an encoded word), and no word too long to fold.
    static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } && !text.contains("=?")
            && text.split(separator: " ").allSatisfy { $0.count <= lineLimit - 10 }
    }

    /// The unstructured value `text` (a subject) as it is when plain, else as encoded words.
    static func unstructured(_ text: String) -> [String] {
        if isPlain(text) { return text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) }
        return encodedWords(text)
    }

    /// A display name as a phrase (RFC 5322 §3.2.5): as it is when it is atoms, a quoted
    /// string when it holds specials, encoded words when it is not plain ASCII.
    static func phrase(_ name: String) -> [String] {
        guard isPlain(name) else { return encodedWords(name) }
        let atoms = name.split(separator: " ", omittingEmptySubsequences: true)
        if !atoms.isEmpty, atoms.allSatisfy({ $0.unicodeScalars.allSatisfy(MailAddress.atext.contains) }),
           atoms.joined(separator: " ") == name {
            return atoms.map(String.init)
        }
        let quoted = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        // A quoted string is one token: folding may only happen between tokens, and a long one
        // is better as encoded words than as one overlong line.
        return quoted.count <= lineLimit - 20 ? [quoted] : encodedWords(name)
    }

    /// `address` as a header's mailbox: `phrase <local@domain>`, or the address alone.
    static func mailbox(_ address: MailAddress) -> [String] {
        guard let name = address.displayName else { return [address.address] }
        return phrase(name) + ["<\(address.address)>"]
    }

    // MARK: - Folding

    /// The header `name: tokens…`, the tokens separated by single spaces, folded (CRLF and a
    /// space) before a token that would take its line past `lineLimit`; ends in CRLF.
    /// Unfolding (taking out each CRLF) gives back the tokens joined by spaces.
    static func folded(_ name: String, _ tokens: [String]) -> String {
        var out = name + ":"
        var lineLength = out.count
        for token in tokens {
            if !token.isEmpty, lineLength + 1 + token.count > lineLimit, lineLength > name.count + 1 {
                out += "\r\n"
                lineLength = 0
            }
            out += " " + token
            lineLength += 1 + token.count
        }
        return out + "\r\n"
    }

    /// A header whose value is a list of mailboxes, separated by commas.
    static func addressList(_ name: String, _ addresses: [MailAddress]) -> String {
        var tokens: [String] = []
        for (index, address) in addresses.enumerated() {
            var mailbox = mailbox(address)
            if index < addresses.count - 1 { mailbox[mailbox.count - 1] += "," }
            tokens += mailbox
        }
        return folded(name, tokens)
    }

    // MARK: - Dates

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in RFC 5322's form in `timeZone`: `Tue, 05 Mar 2024 14:03:07 +0100`.
    static func date(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let offset = timeZone.secondsFromGMT(for: date) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let zone = (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + two(abs(offset) % 60)
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day ?? 1)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour ?? 0)):\(two(parts.minute ?? 0)):\(two(parts.second ?? 0)) \(zone)"
    }
}
