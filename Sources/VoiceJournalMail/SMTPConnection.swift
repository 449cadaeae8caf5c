import VoiceJournalCCurl
import VoiceJournalSystem
import VoiceJournalTranscription
import Foundation

/// A libcurl easy handle for sending to one SMTP server, one message at a time, each over a
/// connection of its own (libcurl would keep a connection whose exchange timed out in the
/// middle of the data as if it were fine, and the next message would go into that one's
/// body). Blocking: call `send` from a thread of its own, never the cooperative pool
/// (`SMTPTransport` does that for one message).
///
/// Not Sendable: a connection belongs to the thread that made it.
public final class SMTPConnection {
    public let settings: MailSettings
    private let easy: CurlEasy

    public init(settings: MailSettings) throws(MailError) {
        self.settings = settings
        do {
            easy = try CurlEasy()
        } catch {
            throw MailError(kind: .libraryUnavailable, description: "libcurl could not start: \(error)")
        }
    }

    /// Hands `mail` to the server and says what became of it. Throws only when the exchange
    /// could not be set up at all (nothing was sent); everything the server or the network
    /// did is the outcome. `abort` stops it in flight. `beforeData` is asked once the server
    /// has accepted DATA, before the message's first byte (a queue marks the moment there):
    /// false withholds the message, and the outcome is then `deferred` (nothing of it sent).
    public func send(_ mail: ComposedMail, abort: AbortSignal = AbortSignal(),
                     beforeData: (@Sendable () -> Bool)? = nil) throws(MailError) -> SendOutcome {
        let exchange = SMTPExchange(body: mail.bytes, abort: abort, deadline: settings.sendTimeout, beforeData: beforeData)
        let started = ProcessInfo.processInfo.systemUptime
        var failure: CurlFailure?
        do {
            let recipients = try CurlHeaderList(mail.recipients.map { "<\($0)>" })
            try configure(mail, exchange: exchange, recipients: recipients)
            defer { quiet() }
            do {
                try withExtendedLifetime((recipients, exchange)) { try easy.perform() }
            } catch let error as CurlFailure {
                failure = error
            }
        } catch {
            throw MailError(kind: .libraryUnavailable, description: "could not set up the mail exchange: \(settings.redact(String(describing: error)))")
        }
        let seconds = ProcessInfo.processInfo.systemUptime - started
        return Self.classify(failure, exchange: exchange, responseCode: easy.responseCode, settings: settings, seconds: seconds)
    }

    private func configure(_ mail: ComposedMail, exchange: SMTPExchange, recipients: CurlHeaderList) throws {
        try easy.reset()
        try easy.set(CURLOPT_URL, settings.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        // Closed after each message: after a failure without a QUIT (nothing more is waited for).
        try easy.set(CURLOPT_FORBID_REUSE, 1)
        // The deadline is kept by the progress callback (SMTPExchange.progress); libcurl's own
        // timeouts are the backstop, a little later.
        let deadline = Int(settings.sendTimeout * 1000)
        try easy.set(CURLOPT_TIMEOUT_MS, deadline + 3000)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, min(deadline, 30_000))
        // Each reply's wait (libcurl's default is two minutes).
        try easy.set(CURLOPT_SERVER_RESPONSE_TIMEOUT, Int(settings.sendTimeout.rounded(.up)) + 3)
        try easy.set(CURLOPT_USE_SSL, Int((settings.security == .plainLoopback ? CURLUSESSL_NONE : CURLUSESSL_ALL).rawValue))
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = settings.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        if let username = settings.username { try easy.set(CURLOPT_USERNAME, username) }
        if let password = settings.password { try easy.set(CURLOPT_PASSWORD, password) }
        try easy.set(CURLOPT_MAIL_FROM, "<\(mail.envelopeFrom)>")
        try easy.set(CURLOPT_MAIL_RCPT, list: recipients)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        try easy.set(CURLOPT_UPLOAD, 1)
        try easy.set(CURLOPT_INFILESIZE, mail.bytes.count)
        try easy.set(CURLOPT_READFUNCTION, callback: SMTPExchange.read)
        try easy.set(CURLOPT_READDATA, pointer: context)
        try easy.setDebug(SMTPExchange.debug)
        try easy.set(CURLOPT_DEBUGDATA, pointer: context)
        try easy.set(CURLOPT_VERBOSE, 1)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try easy.setProgress(SMTPExchange.progress)
        try easy.set(CURLOPT_XFERINFODATA, pointer: context)
    }

    /// After a message: no callback may reach its exchange again, which is gone.
    private func quiet() {
        try? easy.set(CURLOPT_VERBOSE, 0)
        try? easy.setDebug(nil)
        try? easy.set(CURLOPT_DEBUGDATA, pointer: nil)
        try? easy.set(CURLOPT_NOPROGRESS, 1)
        try? easy.set(CURLOPT_XFERINFODATA, pointer: nil)
        try? easy.set(CURLOPT_READDATA, pointer: nil)
    }

    /// What became of a message, from libcurl's result and what the server said.
    static func classify(_ failure: CurlFailure?, exchange: SMTPExchange, responseCode: Int, settings: MailSettings,
                         seconds: Double) -> SendOutcome {
        let server = settings.url
        func shown(_ reply: SMTPReply) -> SMTPReply {
            SMTPReply(code: reply.code, lines: reply.lines.map { settings.redact($0) })
        }
        guard let failure else {
            let reply = exchange.dataReply ?? exchange.lastReply ?? SMTPReply(code: responseCode, lines: [])
            return .sent(shown(reply))
        }
        let detail = settings.redact(failure.description)
        let deadline = "\(Int(settings.sendTimeout)) s"
        let timedOut = exchange.deadlinePassed || failure.code == CURLE_OPERATION_TIMEDOUT

        // Once the data has begun, the server may have the message unless it said otherwise.
        if exchange.dataBegan {
            if let reply = exchange.dataReply {
                if reply.isTransient { return .deferred(reply: shown(reply), reason: "it may be sent again later") }
                if reply.isPermanent { return .rejected(shown(reply)) }
            }
            let what = timedOut ? "no answer came within \(deadline)"
                : failure.code == CURLE_ABORTED_BY_CALLBACK ? "it was stopped" : "the connection broke (\(detail))"
            let sent = exchange.bodyRead ? "after the whole message was sent" : "while the message was being sent"
            return .unknownOutcome(reason: "\(what) \(sent) to \(server): the server may or may not have the message; "
                                   + "check the recipient's mailbox before sending it again")
        }

        switch failure.code {
        case CURLE_USE_SSL_FAILED:
            return .tlsRefused(reason: "\(server) does not offer STARTTLS, and mail is sent only over TLS: use smtps:// (port 465) "
                               + "if the server has it; for a mail server on this machine, set allow_plain_loopback = true in [mail]")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tlsRefused(reason: "the certificate of \(server) was not accepted (\(detail)): "
                               + "the url's host must be a name the certificate carries, and its CA one the system trusts "
                               + "(or the one in ca_file in [mail]); nothing was sent")
        case CURLE_SSL_CONNECT_ERROR:
            return .tlsRefused(reason: "TLS with \(server) failed (\(detail)): check the url's scheme and port "
                               + "(smtps:// for port 465, smtp:// with STARTTLS for 587); nothing was sent")
        case CURLE_LOGIN_DENIED:
            let reply = exchange.lastReply.map(shown) ?? SMTPReply(code: responseCode, lines: [])
            return reply.isTransient ? .deferred(reply: reply, reason: "the login failed for now; nothing was sent")
                : .loginRefused(reply)
        case CURLE_ABORTED_BY_CALLBACK where !timedOut:
            return .deferred(reply: nil, reason: "sending to \(server) was stopped before the message was sent")
        default:
            break
        }
        if let reply = exchange.lastReply.map(shown), !reply.isPositive, reply.code != 334, reply.code != 354 {
            let step = exchange.lastReplyTo.shown
            if reply.isTransient {
                return .deferred(reply: reply, reason: "the server answered \(step) with it; nothing was sent, it may be sent again later")
            }
            if reply.code == 530 || reply.code == 535 || exchange.lastReplyTo == .AUTH { return .loginRefused(reply) }
            return .rejected(reply)
        }
        if timedOut {
            let said = exchange.lastReply == nil ? "no answer" : "no further answer"
            return .deferred(reply: nil, reason: "\(said) from \(server) within \(deadline) (\(String(format: "%.1f", seconds)) s); "
                             + "nothing was sent, it may be sent again later")
        }
        switch failure.code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .deferred(reply: nil, reason: "cannot reach \(server) (\(detail)); check the network and the url in [mail]")
        default:
            return .deferred(reply: nil, reason: "the connection to \(server) failed before the message was sent (\(detail)); "
                             + "it may be sent again later")
        }
    }
}

/// Sends one message at a time from async code: each on a connection of its own, made, used
/// and closed on one of the blocking threads, never on the cooperative pool.
public struct SMTPTransport: Sendable {
    public let settings: MailSettings

    public init(settings: MailSettings) {
        self.settings = settings
    }

    /// Composes `message` as sent at `date` and hands it to the server.
    public func send(_ message: MailMessage, date: Date = Date(), timeZone: TimeZone = .current,
                     abort: AbortSignal = AbortSignal()) async throws(MailError) -> (mail: ComposedMail, outcome: SendOutcome) {
        let mail = message.composed(date: date, timeZone: timeZone)
        return (mail, try await send(mail, abort: abort))
    }

    /// Hands `mail` to the server and says what became of it (`beforeData` as for
    /// `SMTPConnection.send`).
    public func send(_ mail: ComposedMail, abort: AbortSignal = AbortSignal(),
                     beforeData: (@Sendable () -> Bool)? = nil) async throws(MailError) -> SendOutcome {
        do {
            return try await onThread { [settings] in
                try SMTPConnection(settings: settings).send(mail, abort: abort, beforeData: beforeData)
            }
        } catch let error as MailError {
            throw error
        } catch {
            throw MailError(kind: .libraryUnavailable, description: settings.redact(String(describing: error)))
        }
    }
}
