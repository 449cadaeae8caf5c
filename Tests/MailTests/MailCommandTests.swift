import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal mail test ADDRESS`, the built binary against the real SMTP server: what the
/// server answered on stdout and exit 0, or one line on stderr and the exit code of the kind of
/// failure; the password never in either.
@Suite struct MailCommandTests {
    static let user = "journal@example.org"
    static let password = "app-pw-7Hq!x2-mail"

    /// A binary with a `[mail]` table for `server` (`extra` lines added) and the password in its environment.
    /// `ca` is the certificate trusted (default: the loopback one the servers present).
    func binary(_ server: SMTPTestServer?, folder: TemporaryFolder, extra: String = "", login: Bool = true,
                ca: SMTPTestServer.Certificate? = nil) throws -> VoicejournalBinary {
        let binary = VoicejournalBinary(home: folder.path("home"), environment: login ? ["VOICEJOURNAL_SMTP_PASSWORD": Self.password] : [:])
        if let server {
            let trusted = try ca ?? SMTPTestServer.Certificate.loopback
            let ca = server.security == .none ? "" : "ca_file = \"\(trusted.certificate.path)\"\n"
            try binary.writeConfig("""
                [mail]
                url = "\(server.url())"
                from = "journal@example.org"
                from_name = "Zoë Łukasiewicz"
                \(login ? "username = \"\(Self.user)\"" : "")
                \(ca)\(extra)
                """)
        }
        return binary
    }

    func expectNoPassword(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        let base64 = Data(Self.password.utf8).base64EncodedString()
        for text in [result.stdout, result.stderr] {
            #expect(!text.contains(Self.password) && !text.contains(base64), "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aTestMessageGoesOutOverSTARTTLSWithALoginAndTheServersAnswerIsPrinted() throws {
        let folder = try TemporaryFolder("mail-cli")
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password))
        let result = try binary(server, folder: folder).run(["mail", "test", "sam@example.net"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the server answered: 250 2.0.0 Ok: queued as VJ0001"), "\(result.stdout)")
        #expect(result.stdout.contains("sent a test message to sam@example.net through \(server.url()) (STARTTLS, logged in as \(Self.user))"))
        expectNoPassword(result)

        let mail = try #require(try server.messages().first)
        #expect(mail.tls && mail.login == Self.user && mail.mailFrom == "journal@example.org" && mail.rcptTos == ["sam@example.net"])
        #expect(mail.addresses["From"] == [["Zoë Łukasiewicz", "journal@example.org"]])
        #expect(mail.addresses["To"] == [["", "sam@example.net"]])
        #expect(mail.headers["Subject"] == "voicejournal test message from Zoë Łukasiewicz")
        #expect(try #require(mail.rawHeaders["Subject"]).joined().contains("=?UTF-8?B?"), "sent as encoded words")
        #expect(mail.date != nil && mail.headers["MIME-Version"] == "1.0")
        let messageID = try #require(mail.headers["Message-ID"])
        #expect(messageID.hasSuffix("@example.org>") && result.stdout.contains("message id: \(messageID)"))
        #expect(mail.parts == ["multipart/alternative", "text/plain", "text/html"] && mail.defects.isEmpty)
        #expect(mail.plainText?.contains("voicejournal mail test") == true && mail.htmlText.contains("voicejournal mail test"))
        #expect(!server.everythingWritten().contains(Self.password))
    }

    @Test func withoutAMailTableItSaysHowToSetOneUp() throws {
        let folder = try TemporaryFolder("mail-cli")
        let result = try binary(nil, folder: folder).run(["mail", "test", "sam@example.net"])
        #expect(result.status == 3 && result.stdout.isEmpty)
        #expect(result.stderr.contains("mail is not set up: add a [mail] table") && result.stderr.contains("VOICEJOURNAL_SMTP_PASSWORD"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anAddressThatIsNoAddressIsAUsageErrorAndNothingIsSent() throws {
        let folder = try TemporaryFolder("mail-cli")
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password))
        for address in ["sam@example.net\r\nBcc: eve@example.org", "not-an-address", "sam@exämple.net"] {
            let result = try binary(server, folder: folder).run(["mail", "test", address])
            #expect(result.status == 2, "\(address.debugDescription): \(result.stderr)")
            #expect(result.stderr.hasPrefix("voicejournal: the address") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(server.events("connection").isEmpty, "no connection was made")
    }

    @Test func aPasswordInTheFileIsAConfigurationErrorNamingTheVariable() throws {
        let folder = try TemporaryFolder("mail-cli")
        let server = try SMTPTestServer(security: .startTLS, login: (Self.user, Self.password))
        let result = try binary(server, folder: folder, extra: "password = \"\(Self.password)\"").run(["mail", "test", "sam@example.net"])
        #expect(result.status == 3 && result.stderr.contains("VOICEJOURNAL_SMTP_PASSWORD"), "\(result.stderr)")
        expectNoPassword(result)
        // A login without the variable set is one too.
        let unset = try binary(server, folder: folder).run(["mail", "test", "sam@example.net"], environment: ["VOICEJOURNAL_SMTP_PASSWORD": ""])
        #expect(unset.status == 3 && unset.stderr.contains("VOICEJOURNAL_SMTP_PASSWORD is not set"), "\(unset.stderr)")
        #expect(server.events("connection").isEmpty)
    }

    @Test func eachWayOfFailingHasItsExitCodeAndOneReadableLine() throws {
        let folder = try TemporaryFolder("mail-cli")
        // 550 at RCPT: the message was refused: work that failed (1), the server's words shown.
        let rejecting = try SMTPTestServer(fault: .rejectRecipient)
        let rejected = try binary(rejecting, folder: folder, login: false).run(["mail", "test", "nobody@example.net"])
        #expect(rejected.status == 1 && rejected.stderr.contains("refused the message: 550 5.1.1 <nobody@example.net>"), "\(rejected.stderr)")
        #expect(rejected.stderr.contains("no such user"))

        // 421: a server saying "later" is the retryable kind, as an unreachable one is (3).
        let deferring = try SMTPTestServer(fault: .deferFirst(5))
        let deferred = try binary(deferring, folder: folder, login: false).run(["mail", "test", "sam@example.net"])
        #expect(deferred.status == 3 && deferred.stderr.contains("deferred the message (421 4.3.2"), "\(deferred.stderr)")

        // A certificate for another name: refused, not retried (3), saying what to check.
        let wrongName = try SMTPTestServer(security: .startTLS, certificate: try .otherName, login: (Self.user, Self.password))
        let tls = try binary(wrongName, folder: folder, ca: try .otherName).run(["mail", "test", "sam@example.net"])
        #expect(tls.status == 3 && tls.stderr.contains("certificate") && tls.stderr.contains("ca_file"), "\(tls.stderr)")
        #expect(tls.stderr.contains("127.0.0.1"), "the name asked for: \(tls.stderr)")
        #expect(wrongName.events("auth").isEmpty)
        #expect(try wrongName.messages().isEmpty)
        expectNoPassword(tls)

        // A wrong password: the login refused (3), and the password never shown.
        let strict = try SMTPTestServer(security: .startTLS, login: (Self.user, "another-password"))
        let login = try binary(strict, folder: folder).run(["mail", "test", "sam@example.net"])
        #expect(login.status == 3 && login.stderr.contains("refused the login (535"), "\(login.stderr)")
        expectNoPassword(login)

        // Closed in the middle of the data: the server may have it (1), said so.
        let cutting = try SMTPTestServer(fault: .closeMidData)
        let cut = try binary(cutting, folder: folder, login: false).run(["mail", "test", "sam@example.net"])
        #expect(cut.status == 1 && cut.stderr.contains("may or may not have the message"), "\(cut.stderr)")

        // Plain text to a server without STARTTLS: refused unless allowed for this machine.
        let plain = try SMTPTestServer(security: .none)
        let refused = try binary(plain, folder: folder, login: false).run(["mail", "test", "sam@example.net"])
        #expect(refused.status == 3 && refused.stderr.contains("does not offer STARTTLS"), "\(refused.stderr)")
        let allowed = try binary(plain, folder: folder, extra: "allow_plain_loopback = true", login: false).run(["mail", "test", "sam@example.net"])
        #expect(allowed.status == 0 && allowed.stdout.contains("(plain text (this machine only))"), "\(allowed.stderr)")
        #expect(try plain.messages().count == 1)
    }

    @Test func aSilentServerIsGivenUpAtTheSendTimeout() throws {
        let folder = try TemporaryFolder("mail-cli")
        let server = try SMTPTestServer(fault: .hang)
        let started = Date()
        let result = try binary(server, folder: folder, extra: "send_timeout = 2", login: false).run(["mail", "test", "sam@example.net"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 3 && result.stderr.contains("no answer from \(server.url()) within 2 s"), "\(result.stderr)")
        #expect(seconds >= 2 && seconds < 6, "\(seconds) s")
    }
}
