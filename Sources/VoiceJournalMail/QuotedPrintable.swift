import Foundation

/// Bodies as quoted-printable UTF-8 (RFC 2045 §6.7): every line of the text a line of the
/// body ending in CRLF (a bare CR or LF, or CRLF, in the text is a line break), lines longer
/// than 76 characters broken with soft line breaks, everything but printable ASCII as `=XX`.
/// What comes out is 7-bit, its lines far below SMTP's 998, and cannot hold a MIME boundary
/// that begins with `=_` (a literal `=` is always `=3D`).
///
/// A line that is a single `.` stays as it is: libcurl doubles a dot at the start of a line
/// as it sends (RFC 5321 §4.5.2) and the server takes it off, so doubling it here would
/// deliver two.
enum QuotedPrintable {
    /// The longest encoded line, its soft break's `=` included.
    static let lineLimit = 76

    /// `text` encoded, its lines separated by CRLF: it ends in CRLF only when `text` ends in a
    /// line break. (In a multipart body the CRLF before a boundary belongs to the boundary, so
    /// a part is this and then CRLF: the text comes back exactly, with or without its last
    /// line break.)
    static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        for (index, line) in lines(of: text).enumerated() {
            if index > 0 { out += "\r\n" }
            encode(line: Array(line.utf8), into: &out)
        }
        return out
    }

    /// The lines of `text`, any of CRLF, CR and LF ending one; a text ending in a line break
    /// has an empty line after it.
    static func lines(of text: String) -> [Substring] {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return unified.split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static let digits = Array("0123456789ABCDEF".utf8)

    private static func encode(line bytes: [UInt8], into out: inout String) {
        var length = 0
        for (index, byte) in bytes.enumerated() {
            let last = index == bytes.count - 1
            let token: String
            switch byte {
            case 0x09 where last, 0x20 where last:
                // Trailing white space would be taken off in transit.
                token = escape(byte)
            case 0x09, 0x20:
                token = String(UnicodeScalar(byte))
            case 0x46 where index == 0 && bytes.starts(with: Array("From ".utf8)):
                // "From " at a line's start is changed to ">From " by mbox-minded relays.
                token = escape(byte)
            case 0x21...0x7E where byte != 0x3D:
                token = String(UnicodeScalar(byte))
            default:
                token = escape(byte)
            }
            // Room for the token and, unless this is the line's end, a soft break's `=`.
            if length + token.count > lineLimit - (last ? 0 : 1) {
                out += "=\r\n"
                length = 0
            }
            out += token
            length += token.count
        }
    }

    private static func escape(_ byte: UInt8) -> String {
        "=" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}
