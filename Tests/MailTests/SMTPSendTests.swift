import Foundation
import Testing
import VoiceJournalMail
import VoiceJournalSystem
import VoiceJournalTestSupport

/// One message sent with libcurl to a real SMTP server (aiosmtpd on 127.0.0.1), and what
/// became of it: sent, refused, deferred, perhaps sent, or refused TLS, each as the server or
/// the network made it, never guessed.
@Suite struct SMTPSendTests {
    static let user = "journal-sender"
    static let password = "pw-Zq8!unusual-9f3e"
    let from = try! MailAddress("journal@example.org", displayName: "Zoë Łukasiewicz")

    func settings(_ server: SMTPTestServer, host: String = "127.0.0.1", login: Bool = true, password: String = SMTPSendTests.password,
                  ca: SMTPTestServer.Certificate? = nil, plainLoopback: Bool = false, timeout: Double = 20) throws -> MailSettings {
        let trusted = try ca ?? SMTPTestServer.Certificate.loopback
        return try MailSettings.resolve(url: server.url(host: host), from: from.address, fromName: from.displayName,
                                 username: login ? Self.user : nil, caFile: server.security == .none ? nil : trusted.certificate.path,
                                 allowPlainLoopback: plainLoopback, sendTimeout: timeout,
                                 environment: login ? [MailSettings.passwordVariable: password] : [:], origin: "[mail] in test")
    }

    func message(_ text: String = "Hello from the journal.\n.\n..\nThe end.") throws -> MailMessage {
        try MailMessage(from: from, to: try MailAddress("sam@example.net", displayName: "Sam"), subject: "Zoë Łukasiewicz asks",
                        text: text, html: MailHTML.paragraphs(text))
    }

    func send(_ settings: MailSettings, _ message: MailMessage? = nil) async throws -> (ComposedMail, SendOutcome, Double) {
        let started = Date()
        let (mail, outcome) = try await SMTPTransport(settings: settings).send(try message ?? self.message())
        return (mail, outcome, Date().timeIntervalSince(started))
    }

    /// As `send`, on a thread of its own rather than the process's few blocking threads, where
    /// it could wait behind the other tests' sends: the time is libcurl's alone.
    func sendTimed(_ settings: MailSettings) async throws -> (ComposedMail, SendOutcome, Double) {
        let mail = try message().composed()
        let (outcome, seconds) = try await DedicatedThread.run(name: "mail test send") { () throws -> (SendOutcome, Double) in
            let connection = try SMTPConnection(settings: settings)
            let started = Date()
            let outcome = try connection.send(mail)
            return (outcome, Date().timeIntervalSince(started))
        }
        return (mail, outcome, seconds)
    }

    /// No outcome's words, nor anything the server wrote, holds the password in any form.
    func expectNoPassword(_ outcome: SendOutcome, _ server: SMTPTestServer, sourceLocation: SourceLocation = #_sourceLocation) {
        let base64 = Data(Self.password.utf8).base64EncodedString()
        for text in [outcome.description, String(describing: outcome), server.everythingWritten()] {
            #expect(!text.contains(Self.password) && !text.contains(base64), "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func startTLSAndALoginDeliverTheMessageAndTheServersReplyComesBack() async throws {
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password))
        let (mail, outcome, _) = try await send(try settings(server))
        guard case .sent(let reply) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reply.code == 250 && reply.description == "250 2.0.0 Ok: queued as VJ0001")
        let received = try #require(try server.messages().first)
        #expect(received.tls && received.login == Self.user)
        #expect(received.mailFrom == "journal@example.org" && received.rcptTos == ["sam@example.net"])
        #expect(received.headers["Subject"] == "Zoë Łukasiewicz asks" && received.headers["Message-ID"] == mail.messageID)
        // libcurl doubles the lone dot on the wire and the server takes it off: the lines arrive whole, once.
        #expect(received.plainText == "Hello from the journal.\n.\n..\nThe end.")
        #expect(received.raw == mail.bytes)
        #expect(server.events("auth").map { $0["success"] as? Bool } == [true])
        expectNoPassword(outcome, server)
    }

    @Test func aLoginByAUTHLOGINAnswersItsChallengesAndTheRepliesAfterThemAreRead() async throws {
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password), authOnly: "LOGIN")
        let (_, outcome, _) = try await send(try settings(server))
        #expect(outcome.reply?.description == "250 2.0.0 Ok: queued as VJ0001", "\(outcome)")
        #expect(server.events("auth").map { $0["mechanism"] as? String } == ["LOGIN"])
        let wrong = try SMTPTestServer(security: .startTLS, login: (Self.user, "not-this-one"), authOnly: "LOGIN")
        let (_, refused, _) = try await send(try settings(wrong))
        guard case .loginRefused(let reply) = refused else { Issue.record("\(refused)"); return }
        #expect(reply.code == 535)
        expectNoPassword(refused, wrong)
    }

    @Test func implicitTLSDelivers() async throws {
        let server = try SMTPTestServer(security: .implicitTLS, login: (Self.user, Self.password))
        let (_, outcome, _) = try await send(try settings(server))
        #expect(outcome.reply?.code == 250, "\(outcome)")
        #expect(try server.messages().first?.tls == true)
    }

    @Test func plainTextIsRefusedUnlessTheServerIsThisMachineAndTheSettingsAllowIt() async throws {
        let server = try SMTPTestServer(security: .none)
        let (_, refused, _) = try await send(try settings(server, login: false))
        guard case .tlsRefused(let reason) = refused else { Issue.record("\(refused)"); return }
        #expect(reason.contains("STARTTLS") && reason.contains("allow_plain_loopback"))
        #expect(!refused.isRetryable)
        #expect(try server.messages().isEmpty, "nothing was sent in the clear")

        let (_, sent, _) = try await send(try settings(server, login: false, plainLoopback: true))
        #expect(sent.reply?.code == 250, "\(sent)")
        #expect(try server.messages().first?.tls == false)
        // localhost counts as this machine too; another host never does.
        let (_, byName, _) = try await send(try settings(server, host: "localhost", login: false, plainLoopback: true))
        #expect(byName.reply?.code == 250, "\(byName)")
        #expect(throws: MailError.self) {
            try MailSettings.resolve(url: "smtp://mail.example.org:25", from: "a@example.org", allowPlainLoopback: true,
                                     environment: [:], origin: "test")
        }
    }

    @Test func aCertificateForAnotherNameOrFromAnUnknownCAIsRefusedAndNotRetried() async throws {
        let otherName = try SMTPTestServer(security: .startTLS, certificate: try .otherName, login: (Self.user, Self.password))
        let (_, wrongName, _) = try await send(try settings(otherName, ca: try .otherName))
        guard case .tlsRefused(let reason) = wrongName else { Issue.record("\(wrongName)"); return }
        #expect(reason.contains("certificate") && reason.contains("ca_file"), "\(reason)")
        #expect(!wrongName.isRetryable)
        #expect(try otherName.messages().isEmpty && otherName.events("auth").isEmpty, "no login, nothing sent")
        expectNoPassword(wrongName, otherName)

        let good = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password))
        let (_, unknownCA, _) = try await send(try settings(good, ca: try .otherName))
        guard case .tlsRefused = unknownCA else { Issue.record("\(unknownCA)"); return }
        #expect(try good.messages().isEmpty && good.events("auth").isEmpty)
    }

    @Test func aRecipientRefusedForGoodIsRejectedWithTheServersWords() async throws {
        let server = try SMTPTestServer(fault: .rejectRecipient)
        let (_, outcome, _) = try await send(try settings(server, login: false))
        guard case .rejected(let reply) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reply.code == 550 && reply.text == "5.1.1 <sam@example.net>: Recipient address rejected: no such user")
        #expect(outcome.description.contains("550 5.1.1") && !outcome.isRetryable)
        #expect(try server.messages().isEmpty)
    }

    @Test func aServiceNotAvailableIsDeferredAndTheNextTryGoesThrough() async throws {
        let server = try SMTPTestServer(fault: .deferFirst(1))
        let (_, first, _) = try await send(try settings(server, login: false))
        guard case .deferred(let reply?, _) = first else { Issue.record("\(first)"); return }
        #expect(reply.code == 421 && first.isRetryable && first.description.contains("421 4.3.2"))
        #expect(try server.messages().isEmpty)
        let (_, second, _) = try await send(try settings(server, login: false))
        #expect(second.reply?.code == 250, "\(second)")
        #expect(try server.messages().count == 1)
    }

    @Test func aConnectionClosedDuringTheDataLeavesTheOutcomeUnknown() async throws {
        let server = try SMTPTestServer(fault: .closeMidData)
        let (_, outcome, _) = try await send(try settings(server, login: false))
        guard case .unknownOutcome(let reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.contains("may or may not have the message") && !outcome.isRetryable)
        #expect(server.events("closed-mid-data").count == 1, "the server cut it after the data began")
    }

    @Test func aServerThatNeverAnswersIsGivenUpAtTheDeadlineAndDeferred() async throws {
        let server = try SMTPTestServer(fault: .hang)
        let (_, outcome, seconds) = try await sendTimed(try settings(server, login: false, timeout: 2))
        guard case .deferred(nil, let reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.contains("within 2 s") && outcome.isRetryable)
        #expect(seconds >= 1.9 && seconds < 4, "gave up after \(seconds) s")
        #expect(server.events("hang").count == 1)
    }

    @Test func aServerSilentAfterTheWholeMessageLeavesTheOutcomeUnknownAtTheDeadline() async throws {
        let server = try SMTPTestServer(fault: .hangAfterData)
        let (mail, outcome, seconds) = try await sendTimed(try settings(server, login: false, timeout: 2))
        guard case .unknownOutcome(let reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.contains("no answer came within 2 s after the whole message was sent"), "\(reason)")
        #expect(!outcome.isRetryable)
        #expect(seconds >= 1.9 && seconds < 4, "gave up after \(seconds) s")
        // The server does have it: sending again would have delivered it twice.
        #expect(try server.messages().first?.raw == mail.bytes)
    }

    @Test func aWrongPasswordIsALoginRefusedAndNeverShown() async throws {
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, "the-right-one"))
        let (_, outcome, _) = try await send(try settings(server))
        guard case .loginRefused(let reply) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reply.code == 535 && outcome.description.contains("VOICEJOURNAL_SMTP_PASSWORD"))
        #expect(server.events("auth").map { $0["success"] as? Bool } == [false])
        #expect(try server.messages().isEmpty)
        expectNoPassword(outcome, server)
    }

    @Test func nothingListeningIsDeferred() async throws {
        let server = try SMTPTestServer(security: .none)
        let settings = try settings(server, login: false, plainLoopback: true)
        server.stop()
        let (_, outcome, _) = try await send(settings)
        guard case .deferred(nil, let reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.contains("cannot reach") && outcome.isRetryable)
    }

    @Test func settingsRefuseWhatCannotWorkAndNeverQuoteThePassword() throws {
        func problem(_ url: String, plain: Bool = false) -> String? {
            if case .failure(let problem) = MailSettings.checkURL(url, allowPlainLoopback: plain) { return problem.message }
            return nil
        }
        #expect(problem("smtp://smtp.example.org:587") == nil && problem("smtps://smtp.example.org") == nil)
        #expect(problem("https://smtp.example.org")?.contains("smtp://") == true)
        #expect(problem("smtp://me:secret@smtp.example.org:587")?.contains("VOICEJOURNAL_SMTP_PASSWORD") == true)
        #expect(problem("smtp://smtp.example.org:587/extra") != nil && problem("smtp://") != nil && problem("smtp.example.org") != nil)
        for loopback in ["127.0.0.1", "127.3.2.1", "localhost", "[::1]"] {
            #expect(problem("smtp://\(loopback):25", plain: true) == nil, "\(loopback)")
        }
        for remote in ["128.0.0.1", "127.0.0.1.example.org", "example.org", "[::2]", "10.0.0.1"] {
            #expect(problem("smtp://\(remote):25", plain: true)?.contains("allow_plain_loopback") == true, "\(remote)")
        }

        let secret = "line\nbreak-password"
        func resolve(username: String?, environment: [String: String]) throws(MailError) -> MailSettings {
            try MailSettings.resolve(url: "smtp://smtp.example.org:587", from: "me@example.org", username: username,
                                     environment: environment, origin: "[mail] in /cfg")
        }
        for (username, environment, words) in [
            ("me", [String: String](), "VOICEJOURNAL_SMTP_PASSWORD is not set"),
            (nil, [MailSettings.passwordVariable: "pw-123456"], "names no username"),
            ("me", [MailSettings.passwordVariable: secret], "line break"),
        ] as [(String?, [String: String], String)] {
            do {
                _ = try resolve(username: username, environment: environment)
                Issue.record("taken: \(environment)")
            } catch {
                #expect(error.kind == .invalidConfiguration && error.description.contains(words) && error.description.contains("/cfg"))
                #expect(!error.description.contains("pw-123456") && !error.description.contains(secret))
            }
        }
        let good = try resolve(username: "me", environment: [MailSettings.passwordVariable: "pw-123456"])
        #expect(good.hasPassword && !good.description.contains("pw-123456") && good.security == .startTLS)
        #expect(good.redact("535 bad pw-123456 / \(Data("\0me\0pw-123456".utf8).base64EncodedString())") == "535 bad [redacted] / [redacted]")
    }
}
