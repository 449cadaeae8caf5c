import Foundation
import Testing
import VoiceJournalTestSupport

/// `serve` with `notify = true` in `[mail]`: an answer stored sends the journal's owner one
/// email through the real SMTP server — with the transcript when serve transcribes it.
@Suite(.onTestThreads) struct ServeNotifyTests {
    static let password = "app-pw-notify-3x"

    /// A serve whose config has `[mail]` for `server` with notify on.
    func serve(_ server: SMTPTestServer, arguments: [String] = [], environment: [String: String] = [:]) throws -> ServeHarness {
        let harness = try ServeHarness(arguments, environment: ["VOICEJOURNAL_SMTP_PASSWORD": Self.password, "TZ": "UTC"]
            .merging(environment) { $1 })
        _ = try harness.binary.writeConfig("""
            [mail]
            url = "\(server.url())"
            from = "journal@example.org"
            username = "journal@example.org"
            ca_file = "\(try SMTPTestServer.Certificate.loopback.certificate.path)"
            notify = true
            notify_to = "sam@example.net"
            """)
        harness.stop()
        try harness.start()
        return harness
    }

    func messages(_ server: SMTPTestServer, count: Int) throws -> [ReceivedMail] {
        let deadline = Date().addingTimeInterval(30)
        while try server.messages().count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        return try server.messages()
    }

    @Test func anAnswerStoredSendsTheOwnerOneEmail() throws {
        let server = try SMTPTestServer(login: ("journal@example.org", Self.password))
        let harness = try serve(server)
        let (id, token) = try harness.assignment(question: "Where did you grow up?")
        #expect(try harness.upload(token, try harness.speechWebM()).status == 200)
        let mail = try #require(try messages(server, count: 1).first)
        #expect(mail.rcptTos == ["sam@example.net"], "notify_to")
        #expect(mail.headers["Subject"]?.hasSuffix(" answered: Where did you grow up?") == true, "\(mail.headers)")
        #expect(mail.plainText?.contains("not transcribed yet") == true && mail.plainText?.contains("assignment show \(id) --play") == true)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try server.messages().count == 1, "one email per answer")
        let stopped = try #require(harness.stop())
        #expect(stopped.stderr.contains("Sent word of assignment \(id)'s answer"), "\(stopped.stderr)")
    }

    @Test func aServeThatTranscribesSendsTheTranscriptWithIt() throws {
        let server = try SMTPTestServer(login: ("journal@example.org", Self.password))
        let whisper = try StubWhisperServer(rules: [.init(responses: [.says("I grew up in a small house by the sea.")])])
        let harness = try serve(server, arguments: ["--transcribe"], environment: ["OPENAI_BASE_URL": whisper.baseURL])
        let (_, token) = try harness.assignment(question: "Where did you grow up?")
        #expect(try harness.upload(token, try harness.speechWebM()).status == 200)
        let mail = try #require(try messages(server, count: 1).first)
        #expect(mail.plainText?.contains("They said:") == true && mail.plainText?.contains("I grew up in a small house by the sea.") == true,
                "\(mail.plainText ?? "")")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try server.messages().count == 1)
    }
}
