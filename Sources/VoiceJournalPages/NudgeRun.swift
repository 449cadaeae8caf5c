import Foundation
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalSystem

/// `voicejournal nudge`: when nothing is in the journal today by `[nudge] after`, one reminder
/// to journal, a desktop notification where there is a notification service on the session
/// bus, else an email; never two on one day.
///
/// Today is the user's local day (the calendar's time zone, `TZ`) as of `now`. What stands in
/// the way is checked, and the day claimed, in one transaction (`JournalStore.claimNudge`):
/// an entry made today, a nudge sent today (or being sent by another run), or the time before
/// `after`, when nothing is sent and nothing recorded. Then the claim is sent; a send that
/// fails gives the claim back, so the timer's next run tries again, and one that works is
/// recorded with its channel and reply.
package struct NudgeRun: Sendable {
    /// Sends an email to the user (the mail settings are the caller's): `subject` and plain
    /// `text`; gives back the mail server's reply, kept with the nudge. Called on a blocking
    /// thread. Throws `NudgeError.mailNotSetUp` when there is no mail to send with.
    package typealias SendEmail = @Sendable (_ subject: String, _ text: String) throws -> String
    /// Shows a desktop notification (`DesktopNotifications.show` on the session bus the
    /// environment names; a test may stand in).
    package typealias Notify = @Sendable (DesktopNotification) async -> NotificationOutcome

    /// Minutes after local midnight from which a nudge is sent.
    package var after: Int
    /// The notification's body (and the email's first line); nil: `defaultMessage`.
    package var message: String?
    package var sendEmail: SendEmail
    package var notify: Notify
    /// Whose day: the user's time zone.
    package var calendar: Calendar = .current

    /// 20:00 unless `[nudge] after` says otherwise: an evening's reminder, with time left to journal.
    package static let defaultAfter = 20 * 60
    package static let summary = "Time to journal"
    package static let defaultMessage = "Nothing in your journal today yet. A few minutes are enough: voicejournal record"

    /// A run as `[nudge]` (nil: no such table) sets it, notifying through the session bus
    /// `environment` names, falling back on `sendEmail`.
    package init(table: NudgeTable?, environment: [String: String], sendEmail: @escaping SendEmail) {
        after = table?.after ?? Self.defaultAfter
        message = table?.message
        self.sendEmail = sendEmail
        notify = { await DesktopNotifications.show($0, environment: environment) }
    }

    /// What the run did, as `--json` prints it.
    package struct Result: Codable, Sendable, Equatable {
        package enum Outcome: String, Codable, Sendable {
            /// A nudge was sent now (`channel`, `at`, `reply`).
            case sent
            /// An entry was made today (`entryId`, `entryAt`): nothing sent.
            case journaled
            /// Today's nudge was sent already (`channel`, `at`), or another run is sending it
            /// (`at` is its claim's time, no `channel`): nothing sent.
            case alreadyNudged
            /// It is before `after`: nothing sent.
            case notYet
        }
        package var outcome: Outcome
        /// The local day, YYYY-MM-DD.
        package var day: String
        /// `[nudge] after`, HH:MM.
        package var after: String
        package var channel: Nudge.Channel?
        package var at: Date?
        package var reply: String?
        package var entryId: Int64?
        package var entryAt: Date?
    }

    /// What the command prints: the result, and its line for a person.
    package struct Output: Sendable {
        package var result: Result
        package var text: String
    }

    /// Runs it as of `now`. Throws `NudgeError` when nothing could be sent (nothing is then
    /// recorded), and the store's errors.
    package func run(store: JournalStore, now: Date) async throws -> Output {
        let start = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        let date = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: now)
        let day = String(format: "%04d-%02d-%02d", date.year ?? 0, date.month ?? 0, date.day ?? 0)
        let due = (date.hour ?? 0) * 60 + (date.minute ?? 0) >= after
        let claim = try await onThread { try store.claimNudge(day: day, from: start, to: end, owner: .current(), claiming: due, now: now) }
        var result = Result(outcome: .notYet, day: day, after: NudgeTable.clock(after))
        switch claim {
        case .journaled(let entryId, let at):
            (result.outcome, result.entryId, result.entryAt) = (.journaled, entryId, at)
            return Output(result: result, text: "You have journaled today (entry #\(entryId) at \(clock(at))); no nudge.")
        case .taken(let nudge):
            (result.outcome, result.channel, result.at) = (.alreadyNudged, nudge.channel, nudge.sentAt ?? nudge.claimedAt)
            let text = nudge.state == .sent ? "Already nudged today at \(clock(nudge.sentAt ?? nudge.claimedAt))."
                : "Another run is nudging today (since \(clock(nudge.claimedAt))); nothing sent."
            return Output(result: result, text: text)
        case .open:
            return Output(result: result, text: "Not yet: a nudge is sent from \(result.after) (it is \(clock(now))); nothing sent.")
        case .claimed(let nudge):
            let (channel, reply) = try await send(releasing: nudge, store: store, day: day)
            let sent = try await onThread { try store.finishNudge(nudge, channel: channel, reply: reply, now: now) }
            (result.outcome, result.channel, result.at, result.reply) = (.sent, channel, sent?.sentAt ?? now, sent?.reply ?? reply)
            let text = channel == .desktop ? "Nudged: a desktop notification (id \(reply))."
                : "Nudged by email (the mail server said: \(DesktopNotification.cleaned(reply, limit: 200)))."
            return Output(result: result, text: text)
        }
    }

    /// Sends the nudge: a desktop notification, else (no session bus, no notification service)
    /// an email. When neither is sent, `claim` is given back and the reason thrown.
    private func send(releasing claim: Nudge, store: JournalStore, day: String) async throws -> (Nudge.Channel, String) {
        let notification = DesktopNotification(summary: Self.summary, body: message ?? Self.defaultMessage)
        let why: String
        switch await notify(notification) {
        case .shown(let id):
            return (.desktop, String(id))
        case .noBus(let reason), .noService(let reason):
            why = reason
        case .failed(let reason):
            try? await onThread { try store.releaseNudge(claim) }
            throw NudgeError(.notSent, "the desktop notification was not shown: \(reason); nothing recorded, so a later run tries again")
        }
        let subject = Self.summary, text = emailText(notification, day: day)
        do {
            return (.email, try await onThread { [sendEmail] in try sendEmail(subject, text) })
        } catch {
            try? await onThread { try store.releaseNudge(claim) }
            if let error = error as? NudgeError, error.kind == .mailNotSetUp {
                throw NudgeError(.noWayToNudge, "no desktop notification service and no [mail] set up: \(why); "
                    + "set up [mail] in the config file, or run nudge in a desktop session")
            }
            throw NudgeError(.notSent, "no desktop notification service (\(why)), and the email was not sent: \(error); "
                + "nothing recorded, so a later run tries again")
        }
    }

    /// The email: the notification's words, and what it is about.
    func emailText(_ notification: DesktopNotification, day: String) -> String {
        """
        \(notification.body)

        Nothing is in your journal for \(day) yet. To record a few minutes: voicejournal record
        To type instead: voicejournal entry add "..."

        voicejournal nudge sends this at most once a day, from \(NudgeTable.clock(after)) ([nudge] after in the config file), \
        when nothing is in the journal that day.
        """
    }

    /// `date` as the local clock shows it, HH:MM.
    private func clock(_ date: Date) -> String {
        let time = calendar.dateComponents([.hour, .minute], from: date)
        return NudgeTable.clock((time.hour ?? 0) * 60 + (time.minute ?? 0))
    }
}

/// Why no nudge was sent.
package struct NudgeError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// There is no mail to send with (what `NudgeRun.SendEmail` throws without mail settings).
        case mailNotSetUp
        /// No notification service and no mail: the machine's setup (exit 3).
        case noWayToNudge
        /// A notification or email that was tried failed (exit 1).
        case notSent
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether the settings, not a failed send, are why (a configuration error).
    package var isConfiguration: Bool { kind != .notSent }

    /// What a `SendEmail` throws when there is no mail to send with.
    package static let mailNotSetUp = NudgeError(.mailNotSetUp, "no [mail] set up")
}
