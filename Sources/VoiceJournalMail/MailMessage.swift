import Foundation

/// One email: who from, who to, the subject, a plain-text body and (optionally) an HTML one.
/// Checked when made (the addresses when they were made, the subject here), so composing it
/// cannot fail; `composed` gives the RFC 5322 text a server takes.
public struct MailMessage: Sendable, Equatable {
    public let from: MailAddress
    public let to: [MailAddress]
    public let subject: String
    /// The plain-text body.
    public let text: String
    /// The HTML body (a whole document, or a fragment), its text already escaped
    /// (`MailHTML.escaped`); nil: plain text only.
    public let html: String?
    /// `Auto-Submitted: auto-generated` (RFC 3834): a message a program sent on its own, such
    /// as a reminder, which vacation responders must not answer.
    public var autoSubmitted = false

    /// The longest subject taken, in characters.
    public static let longestSubject = 500

    public init(from: MailAddress, to: [MailAddress], subject: String, text: String, html: String? = nil) throws(MailError) {
        guard !to.isEmpty else { throw MailError(kind: .invalidMessage, description: "a message needs at least one recipient") }
        if let problem = HeaderText.problem(in: subject) {
            throw MailError(kind: .invalidMessage, description: "the subject \(HeaderText.shown(subject)) \(problem)")
        }
        guard subject.count <= Self.longestSubject else {
            throw MailError(kind: .invalidMessage, description: "the subject is longer than \(Self.longestSubject) characters")
        }
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
    }

    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String? = nil) throws(MailError) {
        try self.init(from: from, to: [to], subject: subject, text: text, html: html)
    }

    /// The message as sent at `date` (the Date header, in `timeZone`), with `messageID` (made
    /// at random on the sender's domain when nil).
    public func composed(date: Date = Date(), timeZone: TimeZone = .current, messageID: String? = nil) -> ComposedMail {
        var random = SystemRandomNumberGenerator()
        let id = messageID ?? "<\(Self.randomToken(using: &random))@\(from.domain)>"
        var head = ""
        head += HeaderText.addressList("From", [from])
        head += HeaderText.addressList("To", to)
        head += HeaderText.folded("Subject", HeaderText.unstructured(subject))
        head += "Date: \(HeaderText.date(date, timeZone: timeZone))\r\n"
        head += "Message-ID: \(id)\r\n"
        if autoSubmitted { head += "Auto-Submitted: auto-generated\r\n" }
        head += "MIME-Version: 1.0\r\n"
        var body: String
        let plain = "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
        if let html {
            // `=_` cannot occur in quoted-printable text (a literal `=` is `=3D`): the
            // boundary never appears inside a part.
            let boundary = "=_vj_" + Self.randomToken(using: &random)
            head += "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n"
            body = "--\(boundary)\r\n" + plain + "\r\n" + QuotedPrintable.encode(text) + "\r\n"
            body += "--\(boundary)\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            body += QuotedPrintable.encode(html) + "\r\n"
            body += "--\(boundary)--\r\n"
        } else {
            // A message ends in CRLF: a text without a last line break gets one.
            head += plain
            body = QuotedPrintable.encode(text)
            if !body.hasSuffix("\r\n") { body += "\r\n" }
        }
        return ComposedMail(messageID: id, envelopeFrom: from.address, recipients: to.map(\.address),
                            bytes: Data((head + "\r\n" + body).utf8))
    }

    /// 128 random bits as 26 base-32 characters (lowercase letters and digits).
    static func randomToken(using random: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let high = random.next() as UInt64, low = random.next() as UInt64
        var bits = (high, low), out = ""
        for _ in 0..<26 {
            out.append(alphabet[Int(bits.1 & 31)])
            bits.1 = (bits.1 >> 5) | ((bits.0 & 31) << 59)
            bits.0 >>= 5
        }
        return out
    }
}

/// A message as it goes to the server: the envelope (MAIL FROM, RCPT TO) and the bytes of
/// the message (headers and body, lines ending in CRLF, 7-bit).
public struct ComposedMail: Sendable, Equatable {
    /// The Message-ID header's value, brackets included: `<…@example.org>`.
    public let messageID: String
    public let envelopeFrom: String
    public let recipients: [String]
    public let bytes: Data

    /// The message as text (it is ASCII).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A message composed before (kept by the delivery queue), sent again as the same bytes.
    public init(messageID: String, envelopeFrom: String, recipients: [String], bytes: Data) {
        self.messageID = messageID
        self.envelopeFrom = envelopeFrom
        self.recipients = recipients
        self.bytes = bytes
    }
}
