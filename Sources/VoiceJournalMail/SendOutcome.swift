import Foundation

/// A reply of an SMTP server: its code and its text (the lines of a multi-line reply, without
/// their codes), as the server sent it: `250 2.0.0 Ok: queued as 4Y2k`.
public struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    /// The three-digit reply code (250, 421, 550, …).
    public let code: Int
    /// The text after the code, one element per line of the reply.
    public let lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The text after the code, the lines joined by spaces.
    public var text: String { lines.joined(separator: " ") }

    /// `250 2.0.0 Ok: queued as 4Y2k`.
    public var description: String { text.isEmpty ? String(code) : "\(code) \(text)" }

    /// 2xx: done.
    public var isPositive: Bool { (200..<300).contains(code) }
    /// 4xx: not now; the same message may be taken later.
    public var isTransient: Bool { (400..<500).contains(code) }
    /// 5xx: not as it stands; sending it again will not help.
    public var isPermanent: Bool { (500..<600).contains(code) }
}

/// What became of one message handed to an SMTP server. Every send ends in one of these;
/// what to do next follows from the case: nothing, not again, again later, or ask a person.
public enum SendOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The server took the message: its reply to the end of the data (`250 … queued as …`).
    case sent(SMTPReply)
    /// The server refused the message for good (a 5xx at MAIL, RCPT or the end of the data):
    /// no such user, refused content. Sending it again as it is will not help.
    case rejected(SMTPReply)
    /// The server refused the login (535, or 530 authentication required): the username or
    /// the password is wrong or missing. Every message would fail the same way.
    case loginRefused(SMTPReply)
    /// Not now: a 4xx reply before the message was handed over, or the server could not be
    /// reached or the connection broke before the data began (refused, unknown host, a
    /// deadline passed with nothing sent). The server does not have the message: retry later.
    /// `reply` is the server's, when one came.
    case deferred(reply: SMTPReply?, reason: String)
    /// The connection broke or the deadline passed after the data began and before the
    /// server's reply to it: the server may have the message. Sending again may deliver it twice.
    case unknownOutcome(reason: String)
    /// TLS could not be set up as required: the certificate names another host or comes from a
    /// CA that is not trusted, or the server offers no STARTTLS. Not retried: the settings or
    /// the server must change. `reason` says what to do.
    case tlsRefused(reason: String)

    /// Whether sending the same message again later may succeed without anyone changing
    /// anything, and cannot deliver it twice.
    public var isRetryable: Bool {
        if case .deferred = self { return true }
        return false
    }

    /// The server's reply, when the outcome rests on one.
    public var reply: SMTPReply? {
        switch self {
        case .sent(let reply), .rejected(let reply), .loginRefused(let reply): reply
        case .deferred(let reply, _): reply
        case .unknownOutcome, .tlsRefused: nil
        }
    }

    /// One line for the user.
    public var description: String {
        switch self {
        case .sent(let reply): "sent: the server answered \(reply)"
        case .rejected(let reply): "the server refused the message: \(reply)"
        case .loginRefused(let reply):
            "the server refused the login (\(reply)): check username in [mail] and \(MailSettings.passwordVariable)"
        case .deferred(let reply?, let reason): "the server deferred the message (\(reply)); \(reason)"
        case .deferred(nil, let reason): reason
        case .unknownOutcome(let reason): reason
        case .tlsRefused(let reason): reason
        }
    }
}
