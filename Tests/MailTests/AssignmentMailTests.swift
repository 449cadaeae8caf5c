import Foundation
import Testing
import VoiceJournalTestSupport

/// An assignment's question by email, the built binary against the real SMTP server: what
/// arrives (headers, both alternatives, the link exactly as `assignment link` prints it, the
/// question escaped in the HTML), the delivery queue's faults (421 then 250, 550, cut
/// mid-DATA, silence, a certificate for another name), at most once, and reminders at the
/// edges of their cooldowns and daily cap.
@Suite(.onTestThreads) struct AssignmentMailTests {

    static let password = "app-pw-9Zr!q-assign"
    static let question = "<script>alert(1)</script> Where did you grow up, & who lived next door?"
    static let start = "2026-11-20T10:00:00Z"

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder("assign-mail") }

    /// A binary whose `[mail]` names `server` (and `extra` lines), with `Zoë Łukasiewicz`
    /// (zoe@example.net) and a question for her; links on this machine over http.
    func journal(_ server: SMTPTestServer, extra: String = "", environment: [String: String] = [:]) throws -> VoicejournalBinary {
        let binary = VoicejournalBinary(home: folder.path("home"), environment: [
            "VOICEJOURNAL_SMTP_PASSWORD": Self.password, "VOICEJOURNAL_PUBLIC_URL": "http://127.0.0.1:8787", "TZ": "UTC",
        ].merging(environment) { $1 })
        try configure(binary, server, extra: extra)
        try binary.succeed(["journal", "create", "Family"])
        try binary.succeed(["person", "add", "Zoë Łukasiewicz", "--relationship", "grandmother", "--email", "zoe@example.net"])
        try binary.succeed(["question", "add", "--journal", "Family", Self.question])
        return binary
    }

    func configure(_ binary: VoicejournalBinary, _ server: SMTPTestServer, extra: String = "") throws {
        try binary.writeConfig("""
            [mail]
            url = "\(server.url())"
            from = "journal@example.org"
            from_name = "Sam Łukasiewicz"
            username = "journal@example.org"
            ca_file = "\(try SMTPTestServer.Certificate.loopback.certificate.path)"
            \(extra)
            """)
    }

    func login() -> (user: String, password: String) { ("journal@example.org", Self.password) }

    func deliveries(_ binary: VoicejournalBinary, _ id: Int) throws -> [[String: Any]] {
        let shown = try #require(try binary.succeed(["assignment", "show", String(id), "--json"]).json() as? [String: Any])
        return try #require(shown["deliveries"] as? [[String: Any]])
    }

    @Test func theQuestionArrivesWithTheLinkAsPrintedAndItsHTMLEscapedAndGoesOnceUnlessAskedAgain() throws {
        let server = try SMTPTestServer(login: login())
        let binary = try journal(server)
        let assigned = try binary.run(["assign", "1", "--person", "Zoë Łukasiewicz", "--send"])
        #expect(assigned.status == 0, "\(assigned.stderr)")
        #expect(assigned.stdout.contains("Sent assignment 1's question to Zoë Łukasiewicz <zoe@example.net>: the server answered 250"),
                "\(assigned.stdout)")
        let link = try binary.succeed(["assignment", "link", "1"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let mail = try #require(try server.messages().first)
        #expect(mail.tls && mail.rcptTos == ["zoe@example.net"] && mail.mailFrom == "journal@example.org")
        #expect(mail.addresses["From"] == [["Sam Łukasiewicz", "journal@example.org"]])
        #expect(mail.addresses["To"] == [["Zoë Łukasiewicz", "zoe@example.net"]])
        let subject = try #require(mail.headers["Subject"])
        #expect(subject.hasPrefix("Sam Łukasiewicz asks: <script>alert(1)</script> Where did you grow up"), "\(subject)")
        #expect(try #require(mail.rawHeaders["Subject"]).joined().contains("=?UTF-8?"), "non-ASCII as encoded words")
        #expect(mail.date != nil && mail.headers["Message-ID"]?.hasSuffix("@example.org>") == true)
        #expect(mail.parts == ["multipart/alternative", "text/plain", "text/html"] && mail.defects.isEmpty)
        #expect(mail.plainText?.contains(link) == true && mail.plainText?.contains(Self.question) == true, "\(mail.plainText ?? "")")
        #expect(mail.html?.contains("href=\"\(link)\"") == true)
        #expect(!mail.htmlTags.contains("script"), "the question's <script> arrives as text: \(mail.htmlTags)")
        #expect(mail.htmlText.contains("<script>alert(1)</script> Where did you grow up, & who lived next door?"), "\(mail.htmlText)")

        // Sent once: again only when asked.
        let twice = try binary.run(["assignment", "send", "1"])
        #expect(twice.status == 2 && twice.stderr.contains("went to zoe@example.net") && twice.stderr.contains("--again"), "\(twice.stderr)")
        #expect(try server.messages().count == 1)
        try binary.succeed(["assignment", "send", "1", "--again"])
        #expect(try server.messages().count == 2)
        let sent = try deliveries(binary, 1)
        #expect(sent.map { $0["state"] as? String } == ["sent", "sent"] && sent.allSatisfy { ($0["reply"] as? String)?.hasPrefix("250") == true })
        let shown = try binary.succeed(["assignment", "show", "1"]).stdout
        #expect(shown.contains("Emails:") && shown.contains("send to zoe@example.net  sent: 250"), "\(shown)")
        #expect(!shown.contains(Self.password) && !assigned.stdout.contains(Self.password) && !assigned.stderr.contains(Self.password))
    }

    @Test func aLinkAPhoneCannotRecordFromOrAControlCharacterInANameIsRefusedBeforeAnythingIsSent() throws {
        let server = try SMTPTestServer(login: login())
        let binary = try journal(server, environment: ["VOICEJOURNAL_PUBLIC_URL": "http://journal.example.org"])
        let refused = try binary.run(["assign", "1", "--person", "Zoë Łukasiewicz", "--send"])
        #expect(refused.status == 2 && refused.stderr.contains("https"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        try binary.succeed(["person", "add", "Eve\u{7}Evil", "--email", "eve@example.net"])
        let control = try binary.run(["assign", "1", "--person", "Eve\u{7}Evil", "--send", "--public-url", "https://journal.example.org"])
        #expect(control.status == 2, "\(control.stderr)")
        #expect(try server.messages().isEmpty && server.events("mail").isEmpty, "nothing reached the server")
    }

    @Test func a421IsTriedAgainAndSentOnceA550IsShownAndNotTriedAgain() throws {
        let server = try SMTPTestServer(login: login(), fault: .deferFirst(1))
        let binary = try journal(server, environment: ["VOICEJOURNAL_MAIL_RETRY_BASE": "0.3"])
        let assigned = try binary.run(["assign", "1", "--person", "Zoë Łukasiewicz", "--send"])
        #expect(assigned.status == 0 && assigned.stdout.contains("Sent assignment 1's question"), "\(assigned.stdout)\(assigned.stderr)")
        #expect(try server.messages().count == 1 && server.events("deferred").count == 1, "\(server.events())")
        #expect(try deliveries(binary, 1).first?["attempts"] as? Int == 2)

        let refusing = try SMTPTestServer(login: login(), fault: .rejectRecipient)
        try configure(binary, refusing)
        try binary.succeed(["question", "add", "--journal", "Family", "And your first school?"])
        try binary.succeed(["assign", "2", "--person", "Zoë Łukasiewicz"])
        let rejected = try binary.run(["assignment", "send", "2"])
        #expect(rejected.status == 1 && rejected.stderr.contains("550"), "\(rejected.stderr)")
        let failed = try #require(try deliveries(binary, 2).first)
        #expect(failed["state"] as? String == "failed" && (failed["reply"] as? String)?.contains("550") == true && failed["attempts"] as? Int == 1)
        // Nothing left to retry: a queue run later sends nothing more.
        let rcpt = refusing.events().count
        _ = try binary.run(["assignment", "show", "2"])
        #expect(refusing.events().count == rcpt)
    }

    @Test func aMessageCutMidDataIsUnknownAndNotSentAgainByItselfAndACertificateForAnotherNameIsRefused() throws {
        let cutting = try SMTPTestServer(login: login(), fault: .closeMidData)
        let binary = try journal(cutting)
        let cut = try binary.run(["assign", "1", "--person", "Zoë Łukasiewicz", "--send"])
        #expect(cut.status == 1 && cut.stderr.contains("--again"), "\(cut.stderr)")
        #expect(try deliveries(binary, 1).first?["state"] as? String == "unknown")
        let shown = try binary.succeed(["assignment", "show", "1"]).stdout
        #expect(shown.contains("it may have arrived"), "\(shown)")
        let again = try binary.run(["assignment", "send", "1"])
        #expect(again.status == 2 && again.stderr.contains("may have reached"), "\(again.stderr)")

        let other = try SMTPTestServer(certificate: try SMTPTestServer.Certificate.otherName, login: login())
        try configure(binary, other)
        try binary.succeed(["question", "add", "--journal", "Family", "And your first school?"])
        try binary.succeed(["assign", "2", "--person", "Zoë Łukasiewicz"])
        let refused = try binary.run(["assignment", "send", "2"])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(try other.messages().isEmpty)
        #expect(try deliveries(binary, 2).first?["state"] as? String == "queued", "kept for when the settings are fixed")
    }

    @Test func aServerThatNeverAnswersMeetsTheDeadline() throws {
        let silent = try SMTPTestServer(login: login(), fault: .hang)
        let binary = try journal(silent, extra: "send_timeout = 2")
        let started = Date()
        let result = try binary.run(["assign", "1", "--person", "Zoë Łukasiewicz", "--send"])
        #expect(Date().timeIntervalSince(started) < 12, "the deadline held")
        #expect(result.status == 0 && result.stdout.contains("Not sent yet") && result.stdout.contains("queue run"), "\(result.stdout)\(result.stderr)")
        #expect(try deliveries(binary, 1).first?["state"] as? String == "queued")
    }

    @Test func remindersHoldTheirCooldownAndTheDailyCapAtTheEdgesAndRemindDueSendsOnce() throws {
        let server = try SMTPTestServer(login: login())
        let binary = try journal(server, environment: ["VOICEJOURNAL_NOW": Self.start])
        for number in 1...4 {
            if number > 1 { try binary.succeed(["question", "add", "--journal", "Family", "Question \(number)?"]) }
            try binary.succeed(["assign", String(number), "--person", "Zoë Łukasiewicz", "--send"])
        }
        #expect(try server.messages().count == 4)
        func at(_ minutes: Double) -> [String: String] {
            ["VOICEJOURNAL_NOW": ISO8601DateFormatter().string(from: ISO8601DateFormatter().date(from: Self.start)!.addingTimeInterval(minutes * 60))]
        }
        let early = try binary.run(["assignment", "remind", "1"], environment: at(59))
        #expect(early.status == 2 && early.stderr.contains("1 hour") && early.stderr.contains("2026-11-20 11:00"), "\(early.stderr)")
        for id in 1...3 {
            let reminded = try binary.run(["assignment", "remind", String(id)], environment: at(61))
            #expect(reminded.status == 0 && reminded.stdout.contains("Sent a reminder of assignment \(id)"), "\(reminded.stderr)")
        }
        let fourth = try binary.run(["assignment", "remind", "4"], environment: at(62))
        #expect(fourth.status == 2 && fourth.stderr.contains("3 reminders went to this person today"), "\(fourth.stderr)")
        #expect(try server.messages().count == 7)
        let shown = try #require(try binary.succeed(["assignment", "show", "1", "--json"]).json() as? [String: Any])
        let assignment = try #require(shown["assignment"] as? [String: Any])
        #expect(assignment["reminderCount"] as? Int == 1 && assignment["lastReminderAt"] as? String == "2026-11-20T11:01:00Z")
        let reminder = try #require(try server.messages().last)
        #expect(reminder.headers["Subject"]?.hasPrefix("Reminder: ") == true && reminder.headers["Auto-Submitted"] == "auto-generated")

        // Three days on: remind --due sends what is due, once however often it runs.
        let later = at(3 * 24 * 60 + 120)
        let due = try binary.run(["remind", "--due"], environment: later)
        #expect(due.status == 0, "\(due.stderr)")
        let sentByDue = try server.messages().count - 7
        #expect(sentByDue == 3, "the daily cap: 3 of the 4 assignments\n\(due.stdout)")
        let again = try binary.run(["remind", "--due"], environment: later)
        #expect(again.status == 0 && again.stdout.contains("No reminders due."), "\(again.stdout)")
        #expect(try server.messages().count == 7 + sentByDue)
    }
}

/// The delivery queue across runs: a deferred message sent by a later `queue run`, and a
/// batch of sends SIGKILLed mid-message leaving nothing sent twice.
@Suite(.onTestThreads) struct DeliveryRunTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder("delivery-runs") }

    func binary(_ server: SMTPTestServer, questions: Int) throws -> VoicejournalBinary {
        // No transcription server named: with nothing to transcribe, `queue run` needs none to send email.
        let binary = VoicejournalBinary(home: folder.path("home"), environment: [
            "VOICEJOURNAL_SMTP_PASSWORD": AssignmentMailTests.password, "VOICEJOURNAL_PUBLIC_URL": "http://127.0.0.1:8787", "TZ": "UTC",
        ])
        try configure(binary, server)
        try binary.succeed(["journal", "create", "Family"])
        try binary.succeed(["person", "add", "Rose", "--email", "rose@example.net"])
        try binary.succeed(["person", "add", "Tom", "--email", "tom@example.net"])
        try binary.succeed(["person", "add", "Ada", "--email", "ada@example.net"])
        for number in 1...questions { try binary.succeed(["question", "add", "--journal", "Family", "Question \(number)?"]) }
        return binary
    }

    func configure(_ binary: VoicejournalBinary, _ server: SMTPTestServer) throws {
        try binary.writeConfig("""
            [mail]
            url = "\(server.url())"
            from = "journal@example.org"
            username = "journal@example.org"
            ca_file = "\(try SMTPTestServer.Certificate.loopback.certificate.path)"
            send_timeout = 30
            """)
    }

    func at(_ seconds: Double) -> [String: String] {
        let start = ISO8601DateFormatter().date(from: AssignmentMailTests.start)!
        return ["VOICEJOURNAL_NOW": ISO8601DateFormatter().string(from: start.addingTimeInterval(seconds))]
    }

    @Test func aMessageTheServerDeferredIsSentByALaterQueueRunOnce() throws {
        let server = try SMTPTestServer(login: ("journal@example.org", AssignmentMailTests.password), fault: .deferFirst(1))
        let binary = try binary(server, questions: 1)
        let deferred = try binary.run(["assign", "1", "--person", "Rose", "--send"], environment: at(0))
        #expect(deferred.status == 0 && deferred.stdout.contains("Not sent yet") && deferred.stdout.contains("421"), "\(deferred.stdout)")
        #expect(try server.messages().isEmpty)
        let early = try binary.run(["queue", "run"], environment: at(30))
        #expect(early.status == 0 && !early.stdout.contains("Emails:"), "not due before its backoff: \(early.stdout)")
        let run = try binary.run(["queue", "run"], environment: at(61))
        #expect(run.status == 0 && run.stdout == "Nothing to transcribe.\nEmails: 1 sent\n", "\(run.stdout)\(run.stderr)")
        let again = try binary.run(["queue", "run"], environment: at(3600))
        #expect(!again.stdout.contains("Emails:"))
        #expect(try server.messages().count == 1)
    }

    @Test func sendingAgainWhatWaitsForItsRetrySendsThatMessageNowNotASecond() throws {
        let server = try SMTPTestServer(login: ("journal@example.org", AssignmentMailTests.password), fault: .deferFirst(1))
        let binary = try binary(server, questions: 1)
        let deferred = try binary.run(["assign", "1", "--person", "Rose", "--send"], environment: at(0))
        #expect(deferred.stdout.contains("Not sent yet"), "\(deferred.stdout)")
        let now = try binary.run(["assignment", "send", "1"], environment: at(5))
        #expect(now.status == 0 && now.stdout.contains("Sent assignment 1's question"), "\(now.stdout)\(now.stderr)")
        let shown = try #require(try binary.succeed(["assignment", "show", "1", "--json"]).json() as? [String: Any])
        let deliveries = try #require(shown["deliveries"] as? [[String: Any]])
        #expect(deliveries.count == 1 && deliveries.first?["state"] as? String == "sent" && deliveries.first?["attempts"] as? Int == 2)
        _ = try binary.run(["queue", "run"], environment: at(3600))
        #expect(try server.messages().count == 1)
        let twice = try binary.run(["assignment", "send", "1"], environment: at(3700))
        #expect(twice.status == 2 && twice.stderr.contains("--again"), "\(twice.stderr)")
    }

    @Test func aBatchOfRemindersKilledMidMessageLeavesNoMessageSentTwice() throws {
        let login = ("journal@example.org", AssignmentMailTests.password)
        let first = try SMTPTestServer(login: login)
        let binary = try binary(first, questions: 3)
        for (question, person) in [(1, "Rose"), (2, "Tom"), (3, "Ada")] {
            try binary.succeed(["assign", String(question), "--person", person, "--send"], environment: at(0))
        }
        #expect(try first.messages().count == 3)
        // The reminders' server takes the first message and never answers its end: the batch
        // is killed while that reminder is in DATA.
        let hanging = try SMTPTestServer(login: login, fault: .hangAfterData)
        try configure(binary, hanging)
        let batch = try binary.start(["remind", "--due"], environment: at(4 * 86400))
        let deadline = Date().addingTimeInterval(20)
        while (try hanging.messages().isEmpty), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try hanging.messages().count == 1, "the first reminder's message reached the server")
        batch.signal(SIGKILL)
        #expect(batch.wait().status == 128 + SIGKILL)

        let last = try SMTPTestServer(login: login)
        try configure(binary, last)
        for _ in 0..<2 {
            let rerun = try binary.run(["remind", "--due"], environment: at(4 * 86400 + 60))
            #expect(rerun.status == 0, "\(rerun.stderr)")
        }
        let reminded = try hanging.messages() + last.messages()
        let recipients = reminded.flatMap(\.rcptTos)
        #expect(recipients.count == 3 && Set(recipients).count == 3, "each person reminded once: \(recipients)")
        let killed = try #require(hanging.messages().first?.rcptTos.first)
        let id = ["rose@example.net": 1, "tom@example.net": 2, "ada@example.net": 3][killed]!
        let shown = try #require(try binary.succeed(["assignment", "show", String(id), "--json"]).json() as? [String: Any])
        let states = (shown["deliveries"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == ["sent", "unknown"], "\(states ?? [])")
        #expect((shown["assignment"] as? [String: Any])?["reminderCount"] as? Int == 1, "a reminder that may have arrived counts")
    }
}

private extension VoicejournalBinary {
    /// Runs it and expects it to succeed (the arguments and stderr are shown if not).
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let result = try run(arguments, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }
}
