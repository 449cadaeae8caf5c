import Foundation
import Testing
import VoiceJournalTestSupport
import VoiceJournalStore

/// `voicejournal nudge` through a real session bus (a private dbus-daemon) to the tests'
/// notification service: one notification on a day without an entry, never two on one day,
/// nothing before `[nudge] after` or on a day with an entry, and without a service or a bus
/// the email tried (without [mail]: exit 3) with nothing recorded, so a later run tries again;
/// with [mail], the email sent through the real SMTP server, once a day.
/// The days are Warsaw's (TZ): 19:30 UTC is 20:30 there, 23:30 UTC already the next day.
@Suite(.onTestThreads) struct NudgeTests {
    static let zone = ["TZ": "Europe/Warsaw"]

    /// The binary on a fresh home, its runs on `environment` (a bus, or none) in Warsaw.
    static func binary(_ folder: TemporaryFolder, _ environment: [String: String]) -> VoicejournalBinary {
        VoicejournalBinary(home: folder.path("home"), environment: environment.merging(zone) { $1 })
    }

    static func nudge(_ binary: VoicejournalBinary, at now: String, json: Bool = false) throws -> CommandResult {
        try binary.run(["nudge"] + (json ? ["--json"] : []), environment: ["VOICEJOURNAL_NOW": now])
    }

    static func nudgesRecorded(_ binary: VoicejournalBinary) throws -> [Nudge] {
        try JournalStore(home: DataHome(url: binary.home), logger: TemporaryJournal.logger).nudges()
    }

    @Test func oneNotificationADayThroughTheSessionBusNeverTwo() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus)
        let binary = Self.binary(folder, bus.environment)

        let first = try Self.nudge(binary, at: "2026-03-10T19:30:00Z")
        #expect(first.status == 0 && first.stdout == "Nudged: a desktop notification (id 1).\n", "\(first.stdout)\(first.stderr)")
        let calls = try service.calls()
        #expect(calls.count == 1)
        #expect(calls.first?.summary == "Time to journal" && calls.first?.app_name == "voicejournal", "\(calls)")
        #expect(calls.first?.body.contains("voicejournal record") == true, "\(calls)")

        // Later the same day, and once more just before its midnight: nothing more.
        for later in ["2026-03-10T20:45:00Z", "2026-03-10T22:59:00Z"] {
            let again = try Self.nudge(binary, at: later)
            #expect(again.status == 0 && again.stdout == "Already nudged today at 20:30.\n", "\(again.stdout)\(again.stderr)")
        }
        let json = try Self.nudge(binary, at: "2026-03-10T21:00:00Z", json: true).json() as? [String: Any]
        #expect(json?["outcome"] as? String == "alreadyNudged" && json?["channel"] as? String == "desktop"
                && json?["day"] as? String == "2026-03-10", "\(String(describing: json))")
        #expect(try service.calls().count == 1)

        // The next day: one more.
        let next = try Self.nudge(binary, at: "2026-03-11T19:30:00Z", json: true)
        let sent = try next.json() as? [String: Any]
        #expect(sent?["outcome"] as? String == "sent" && sent?["channel"] as? String == "desktop" && sent?["reply"] as? String == "2"
                && sent?["day"] as? String == "2026-03-11", "\(next.stdout)\(next.stderr)")
        #expect(try service.calls().count == 2)
        #expect(try Self.nudgesRecorded(binary).map(\.day) == ["2026-03-11", "2026-03-10"])
    }

    @Test func anEntryMadeTodayMeansNoNudgeByTheLocalDay() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus)
        let binary = Self.binary(folder, bus.environment)
        // 23:30 in Warsaw on the 9th: yesterday's entry, not the 10th's.
        #expect(try binary.run(["entry", "add", "late"], environment: ["VOICEJOURNAL_NOW": "2026-03-09T22:30:00Z"]).status == 0)
        #expect(try Self.nudge(binary, at: "2026-03-10T19:30:00Z").stdout.hasPrefix("Nudged"))
        // 00:30 in Warsaw on the 11th (still the 10th in UTC): that day's entry.
        #expect(try binary.run(["entry", "add", "early"], environment: ["VOICEJOURNAL_NOW": "2026-03-10T23:30:00Z"]).status == 0)
        let journaled = try Self.nudge(binary, at: "2026-03-11T19:30:00Z")
        #expect(journaled.status == 0 && journaled.stdout == "You have journaled today (entry #2 at 00:30); no nudge.\n",
                "\(journaled.stdout)\(journaled.stderr)")
        #expect(try service.calls().count == 1)
        #expect(try Self.nudgesRecorded(binary).map(\.day) == ["2026-03-10"])
    }

    @Test func beforeAfterNothingIsSentThenTheConfiguredMessageIs() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus, .showsPlainText)
        let binary = Self.binary(folder, bus.environment)
        // The default, 20:00: at 19:59 nothing.
        let early = try Self.nudge(binary, at: "2026-03-10T18:59:00Z")
        #expect(early.status == 0 && early.stdout == "Not yet: a nudge is sent from 20:00 (it is 19:59); nothing sent.\n",
                "\(early.stdout)\(early.stderr)")
        try binary.writeConfig("[nudge]\nafter = \"21:15\"\nmessage = \"Two minutes\\tabout today? \\u001B[2J\"\n")
        let before = try Self.nudge(binary, at: "2026-03-10T20:14:00Z", json: true).json() as? [String: Any]
        #expect(before?["outcome"] as? String == "notYet" && before?["after"] as? String == "21:15", "\(String(describing: before))")
        #expect(try service.calls().isEmpty && Self.nudgesRecorded(binary).isEmpty)
        #expect(try Self.nudge(binary, at: "2026-03-10T20:15:00Z").stdout == "Nudged: a desktop notification (id 1).\n")
        // The message as data: the tab a space, the escape character gone.
        #expect(try service.calls().map(\.body) == ["Two minutes about today? [2J"])

        try binary.writeConfig("[nudge]\nafter = \"25:00\"\n")
        let bad = try Self.nudge(binary, at: "2026-03-11T20:15:00Z")
        #expect(bad.status == 3 && bad.stderr.contains("\"after\" in [nudge]") && bad.stderr.contains("HH:MM"), "\(bad.stderr)")
        #expect(try service.calls().count == 1)
    }

    @Test func withoutAServiceOrABusTheEmailIsTriedAndNothingIsRecorded() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let onBus = Self.binary(folder, bus.environment)
        // A bus with no notification service on it.
        let noService = try Self.nudge(onBus, at: "2026-03-10T19:30:00Z")
        #expect(noService.status == 3 && noService.stdout.isEmpty, "\(noService.stdout)")
        #expect(noService.stderr.contains("no desktop notification service and no [mail] set up: ")
                && noService.stderr.contains("org.freedesktop.Notifications"), "\(noService.stderr)")
        // No session bus at all.
        let noBus = try Self.nudge(Self.binary(folder, PrivateSessionBus.noBusEnvironment), at: "2026-03-10T19:40:00Z")
        #expect(noBus.status == 3 && noBus.stderr.contains("no desktop notification service and no [mail] set up: no session bus"),
                "\(noBus.stderr)")
        #expect(try Self.nudgesRecorded(onBus).isEmpty)
        // Nothing was recorded: once a service is there, the same day's run nudges.
        let service = try TestNotificationService(on: bus)
        #expect(try Self.nudge(onBus, at: "2026-03-10T19:50:00Z").stdout == "Nudged: a desktop notification (id 1).\n")
        #expect(try service.calls().count == 1)
    }

    @Test func aServiceThatRefusesFailsTheRunAndALaterOneTriesAgain() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let binary = Self.binary(folder, bus.environment)
        let refusing = try TestNotificationService(on: bus, .refuses)
        let refused = try Self.nudge(binary, at: "2026-03-10T19:30:00Z")
        #expect(refused.status == 1 && refused.stderr.contains("the desktop notification was not shown"), "\(refused.stderr)")
        #expect(try refusing.calls().count == 1 && Self.nudgesRecorded(binary).isEmpty)
        refusing.stop()
        let service = try TestNotificationService(on: bus)
        #expect(try Self.nudge(binary, at: "2026-03-10T20:00:00Z").status == 0)
        #expect(try service.calls().count == 1)
    }

    @Test func runsAtOnceSendOneNotification() throws {
        let folder = try TemporaryFolder()
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus)
        let binary = Self.binary(folder, bus.environment)
        #expect(try binary.run(["journal", "create", "Work"]).status == 0) // the journal made: the runs race on the nudge alone
        let runs = try (0..<4).map { _ in try binary.start(["nudge"], environment: ["VOICEJOURNAL_NOW": "2026-03-10T19:30:00Z"]) }
        let results = runs.map { $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(results.filter { $0.stdout.hasPrefix("Nudged") }.count == 1, "\(results.map(\.stdout))")
        #expect(try service.calls().count == 1)
    }

    @Test func withoutADesktopTheNudgeIsAnEmailThroughMailOnceADay() throws {
        let folder = try TemporaryFolder()
        let server = try SMTPTestServer(login: ("journal@example.org", "nudge-pw-1"))
        let binary = Self.binary(folder, PrivateSessionBus.noBusEnvironment.merging(["VOICEJOURNAL_SMTP_PASSWORD": "nudge-pw-1"]) { $1 })
        _ = try binary.writeConfig("""
            [mail]
            url = "\(server.url())"
            from = "journal@example.org"
            username = "journal@example.org"
            ca_file = "\(try SMTPTestServer.Certificate.loopback.certificate.path)"
            """)
        let first = try Self.nudge(binary, at: "2026-03-10T19:30:00Z")
        #expect(first.status == 0, "\(first.stderr)")
        let mail = try #require(try server.messages().first)
        #expect(mail.rcptTos == ["journal@example.org"] && mail.headers["Auto-Submitted"] == "auto-generated", "\(mail.headers)")
        #expect(try Self.nudgesRecorded(binary).map(\.channel) == [.email])
        let again = try Self.nudge(binary, at: "2026-03-10T20:30:00Z")
        #expect(again.status == 0 && again.stdout.contains("Already nudged today"), "\(again.stdout)")
        #expect(try server.messages().count == 1, "never twice a day")
    }
}
