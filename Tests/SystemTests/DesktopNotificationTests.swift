import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalSystem

/// Desktop notifications through a real session bus (a private dbus-daemon) to the tests'
/// notification service: what the service receives, and each way it can fail told apart.
@Suite(.onTestThreads) struct DesktopNotificationTests {
    let notification = DesktopNotification(summary: "Time to journal", body: "Tom & Jerry <b>bold</b>")

    @Test func theServiceReceivesTheNotificationAsTheSpecificationHasItAndGivesItsId() throws {
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus)
        #expect(DesktopNotifications.showWaiting(notification, environment: bus.environment) == .shown(1))
        #expect(DesktopNotifications.showWaiting(notification, environment: bus.environment) == .shown(2))
        let calls = try service.calls()
        #expect(calls.count == 2)
        let call = try #require(calls.first)
        #expect(call.app_name == "voicejournal" && call.replaces_id == 0 && call.app_icon == "" && call.actions.isEmpty
                && call.hints.isEmpty && call.expire_timeout == -1, "\(call)")
        // The service reads markup in bodies: the text is sent escaped, to show as written.
        #expect(call.summary == "Time to journal" && call.body == "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;", "\(call)")
    }

    @Test func aServiceWithoutMarkupGetsTheBodyAsItIs() throws {
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus, .showsPlainText)
        #expect(DesktopNotifications.showWaiting(notification, environment: bus.environment) == .shown(1))
        #expect(try service.calls().map(\.body) == ["Tom & Jerry <b>bold</b>"])
    }

    @Test func theBusFoundAsXDGRuntimeDirBusWhenNoAddressIsSet() throws {
        let bus = try PrivateSessionBus()
        let service = try TestNotificationService(on: bus)
        let environment = ["XDG_RUNTIME_DIR": bus.runtimeFolder.path]
        #expect(DesktopNotifications.sessionBusAddress(environment: environment)?.hasSuffix("/bus") == true)
        #expect(DesktopNotifications.showWaiting(notification, environment: environment) == .shown(1))
        #expect(try service.calls().count == 1)
    }

    @Test func noBusNoServiceARefusalAndASilenceAreToldApart() throws {
        // No bus named at all, and one named that is not there.
        guard case .noBus(let none) = DesktopNotifications.showWaiting(notification, environment: PrivateSessionBus.noBusEnvironment) else {
            Issue.record("no bus named is .noBus")
            return
        }
        #expect(none.contains("DBUS_SESSION_BUS_ADDRESS"))
        let folder = try TemporaryFolder()
        let gone = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path("nothing-here").path)"]
        guard case .noBus(let refused) = DesktopNotifications.showWaiting(notification, environment: gone) else {
            Issue.record("a bus that is not there is .noBus")
            return
        }
        #expect(refused.contains("nothing-here"), "\(refused)")

        // A bus without the service.
        let bus = try PrivateSessionBus()
        guard case .noService(let missing) = DesktopNotifications.showWaiting(notification, environment: bus.environment) else {
            Issue.record("a bus without the service is .noService")
            return
        }
        #expect(missing.contains("org.freedesktop.Notifications"), "\(missing)")

        // A service that refuses, and one that never answers: failed, within the time given.
        let refusing = try TestNotificationService(on: bus, .refuses)
        guard case .failed(let why) = DesktopNotifications.showWaiting(notification, environment: bus.environment) else {
            Issue.record("a refusal is .failed")
            return
        }
        #expect(why.contains("org.freedesktop.DBus.Error.Failed"), "\(why)")
        #expect(try refusing.calls().count == 1)
        refusing.stop()
        let hanging = try TestNotificationService(on: bus, .hangs)
        let started = ContinuousClock.now
        let outcome = DesktopNotifications.showWaiting(notification, environment: bus.environment, timeout: .seconds(1))
        let waited = ContinuousClock.now - started
        guard case .failed(let silence) = outcome else {
            Issue.record("no answer is .failed, not \(outcome)")
            return
        }
        #expect(silence.contains("did not answer"), "\(silence)")
        #expect(waited >= .milliseconds(900) && waited < .seconds(4), "\(waited)")
        #expect(try hanging.calls().count == 1)
    }

    @Test func theTextIsDataWithoutControlsCutShort() {
        let shown = DesktopNotification(summary: "Time\u{1B}[31m to\tjournal\u{202E}\n", body: String(repeating: "word ", count: 200))
        #expect(shown.summary == "Time[31m to journal")
        #expect(shown.body.count == DesktopNotification.bodyLimit && shown.body.hasSuffix("…"))
        #expect(DesktopNotification.cleaned("a\u{0}b\u{7F}c\u{FFFE}d 👩‍💻", limit: 50) == "abcd 👩‍💻")
        #expect(DesktopNotifications.escapedAddressValue("/run/user/1000/my bus,x=1") == "/run/user/1000/my%20bus%2Cx%3D1")
    }
}
