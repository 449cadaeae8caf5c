import Foundation
import Synchronization
import Testing
import VoiceJournalPages
import VoiceJournalSystem
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The nudge's decisions with the notification and the email stood in for: the email is the
/// fallback when there is no bus or no service (its reply kept), a send that fails records
/// nothing, and a claim left by a run that died is taken over while a live one is not.
@Suite(.onTestThreads) struct NudgeRunTests {
    /// 20:30 on 10 March in UTC, the calendar's zone here.
    static let evening = Date(timeIntervalSince1970: 1_773_174_600)
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// What a run's stand-ins were asked, in order.
    final class Calls: Sendable {
        let notifications = Mutex<[DesktopNotification]>([])
        let emails = Mutex<[String]>([])
    }

    static func run(_ outcome: NotificationOutcome, calls: Calls, email: @escaping @Sendable () throws -> String) -> NudgeRun {
        var run = NudgeRun(table: nil, environment: [:]) { subject, text in
            calls.emails.withLock { $0.append(subject + "\n" + text) }
            return try email()
        }
        run.notify = { notification in
            calls.notifications.withLock { $0.append(notification) }
            return outcome
        }
        run.calendar = utc
        return run
    }

    @Test func withNoServiceTheEmailIsSentOnceAndItsReplyKept() async throws {
        let journal = try TemporaryJournal()
        let calls = Calls()
        let run = Self.run(.noService("nothing provides it"), calls: calls) { "250 2.0.0 Ok: queued as 4F2A" }
        let sent = try await run.run(store: journal.store, now: Self.evening)
        #expect(sent.result.outcome == .sent && sent.result.channel == .email && sent.result.reply == "250 2.0.0 Ok: queued as 4F2A")
        #expect(sent.text == "Nudged by email (the mail server said: 250 2.0.0 Ok: queued as 4F2A).")
        let email = try #require(calls.emails.withLock { $0.first })
        #expect(email.hasPrefix("Time to journal\n\(NudgeRun.defaultMessage)\n") && email.contains("2026-03-10"), "\(email)")
        let again = try await run.run(store: journal.store, now: Self.evening.addingTimeInterval(3600))
        #expect(again.result.outcome == .alreadyNudged && again.text == "Already nudged today at 20:30.")
        #expect(calls.emails.withLock { $0.count } == 1 && calls.notifications.withLock { $0.count } == 1)
        #expect(try journal.store.nudges().map(\.reply) == ["250 2.0.0 Ok: queued as 4F2A"])
    }

    @Test func anEmailThatFailsRecordsNothingAndNoMailIsAConfigurationError() async throws {
        let journal = try TemporaryJournal()
        let calls = Calls()
        struct Refused: Error, CustomStringConvertible { var description: String { "535 authentication failed" } }
        let failing = Self.run(.noBus("no session bus"), calls: calls) { throw Refused() }
        await #expect { try await failing.run(store: journal.store, now: Self.evening) } throws: { error in
            let error = error as? NudgeError
            return error?.kind == .notSent && error?.isConfiguration == false && "\(error!)".contains("535 authentication failed")
        }
        let unset = Self.run(.noService("nothing provides it"), calls: calls) { throw NudgeError.mailNotSetUp }
        await #expect { try await unset.run(store: journal.store, now: Self.evening) } throws: { error in
            let error = error as? NudgeError
            return error?.isConfiguration == true && "\(error!)".hasPrefix("no desktop notification service and no [mail] set up: nothing provides it")
        }
        // A desktop notification that fails does not fall back on email.
        let refusing = Self.run(.failed("refused"), calls: calls) { "250 Ok" }
        await #expect(throws: NudgeError.self) { try await refusing.run(store: journal.store, now: Self.evening) }
        #expect(calls.emails.withLock { $0.count } == 2)
        #expect(try journal.store.nudges().isEmpty)
        let works = Self.run(.shown(9), calls: calls) { "unused" }
        #expect(try await works.run(store: journal.store, now: Self.evening).text == "Nudged: a desktop notification (id 9).")
    }

    @Test func aClaimLeftByARunThatDiedIsTakenOverALiveOneIsNot() throws {
        let journal = try TemporaryJournal()
        let start = Self.utc.startOfDay(for: Self.evening), end = start.addingTimeInterval(86_400)
        func claim(_ owner: LeaseOwner, at now: Date) throws -> NudgeClaim {
            try journal.store.claimNudge(day: "2026-03-10", from: start, to: end, owner: owner, claiming: true, now: now)
        }
        // A live process of this machine (this one), minutes ago: its claim stands.
        let live = LeaseOwner(host: LeaseOwner.current().host, pid: getpid(), nonce: "live")
        guard case .claimed = try claim(live, at: Self.evening) else { Issue.record("the first claim"); return }
        guard case .taken(let held) = try claim(.current(), at: Self.evening.addingTimeInterval(60)), held.claimedBy == live.description else {
            Issue.record("a live claim is not taken over")
            return
        }
        // Long past: taken over, and the old run can neither finish nor release it.
        guard case .claimed(let mine) = try claim(.current(), at: Self.evening.addingTimeInterval(JournalStore.staleNudgeClaim + 1)) else {
            Issue.record("a stale claim is taken over")
            return
        }
        #expect(try journal.store.finishNudge(held, channel: .desktop, reply: "1", now: Self.evening) == nil)
        try journal.store.releaseNudge(held)
        #expect(try journal.store.finishNudge(mine, channel: .desktop, reply: "2", now: Self.evening)?.reply == "2")
        // A process that is gone: taken over at once (a sent nudge never is).
        let gone = LeaseOwner(host: LeaseOwner.current().host, pid: Int32.max - 1, nonce: "gone")
        let tomorrow = (start: end, end: end.addingTimeInterval(86_400))
        _ = try journal.store.claimNudge(day: "2026-03-11", from: tomorrow.start, to: tomorrow.end, owner: gone, claiming: true, now: end)
        guard case .claimed = try journal.store.claimNudge(day: "2026-03-11", from: tomorrow.start, to: tomorrow.end, owner: .current(),
                                                         claiming: true, now: end.addingTimeInterval(1)) else {
            Issue.record("a claim of a process that is gone is taken over")
            return
        }
        guard case .taken = try claim(.current(), at: Self.evening.addingTimeInterval(JournalStore.staleNudgeClaim * 3)) else {
            Issue.record("a sent nudge stands")
            return
        }
    }
}
