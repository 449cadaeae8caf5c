import Foundation
import VoiceJournalMail
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalTerminal

/// `assign --send`, `assignment send`, `assignment remind` and `remind --due`: an
/// assignment's question (or a reminder of it) queued as a delivery and sent at once through
/// the `[mail]` server, each line of the outcome for the user. A message is sent at most once
/// unless the user asks again (`--again`).
package struct AssignmentMailRun: Sendable {
    let store: JournalStore
    let settings: Settings
    let mail: MailSettings
    let now: Date
    /// The link that answers an assignment (`assignment link`'s).
    let link: @Sendable (String) -> String
    let environment: [String: String]

    package init(store: JournalStore, settings: Settings, environment: [String: String], now: Date) throws {
        self.store = store
        self.settings = settings
        mail = try settings.mailSettings(environment: environment)
        self.now = now
        self.environment = environment
        link = { [settings] token in settings.answerLink(token: token) }
    }

    /// Sends assignment `id`'s question to its person; `again` sends it even when it went before.
    package func send(_ id: Int64, again: Bool) async throws -> [String] {
        let (assignment, to) = try recipient(id)
        let address = link(assignment.linkToken)
        if let problem = AssignmentMail.linkProblem(address) { throw StoreError.invalidInput(problem) }
        if !again, let earlier = try store.deliveries(assignmentId: id).last(where: { $0.kind == .send && $0.state != .failed && $0.state != .cancelled }) {
            // One waiting for its retry is sent now (the same message), not a second one.
            guard earlier.state == .queued, try store.makeDeliveryDue(id: earlier.id!, now: Self.clock(now)) else {
                throw StoreError.invalidInput(Self.already(earlier, id: id))
            }
            return try await sendNow(earlier, assignment: assignment, to: to)
        }
        let message = try AssignmentMail.question(assignment.question, link: address, from: mail.from, to: to, asker: asker)
        return try await deliver(message, kind: .send, assignment: assignment, to: to)
    }

    /// Sends a reminder of assignment `id`, if the cooldown and the person's daily cap allow.
    package func remind(_ id: Int64) async throws -> [String] {
        let (assignment, to) = try recipient(id)
        if case .refused(let reason, let next) = try decision(assignment) {
            let when = next.map { "; the next may go at \(LocalDate.short($0))" } ?? ""
            throw StoreError.invalidInput("no reminder for assignment \(id) now: \(reason)\(when)")
        }
        return try await sendReminder(assignment, to: to)
    }

    /// `remind --due`: a reminder to every unanswered assignment whose link went at least
    /// `[mail] remind_after_days` ago, with fewer than `reminders_most` reminders, that the
    /// cooldown and daily cap allow. Safe to run again and again (from a timer): what went is
    /// counted, and waits its turn. One person's address or one server refusal stops only theirs.
    package func remindDue() async throws -> [String] {
        let table = settings.file?.mail
        let after = (table?.remindAfterDays ?? 3) * 86400, most = table?.remindersMost ?? 3
        var lines: [String] = []
        for id in try store.unansweredAssignments(sentBefore: now.addingTimeInterval(-after), maxReminders: most) {
            let assignment = try store.assignment(id: id)
            guard let email = try store.assignmentEmail(id), !email.isEmpty, try decision(assignment) == .allowed else { continue }
            do {
                lines += try await sendReminder(assignment, to: MailAddress(email, displayName: assignment.person))
            } catch let error as MailError where [.notSent, .invalidAddress, .invalidMessage].contains(error.kind) {
                lines.append("assignment \(id): \(error.description)")
            }
        }
        return lines.isEmpty ? ["No reminders due."] : lines
    }

    /// The reminder of `assignment` to `to`, sent now (the cooldown and cap already allow it).
    func sendReminder(_ assignment: AssignmentSummary, to: MailAddress) async throws -> [String] {
        let address = link(assignment.linkToken)
        if let problem = AssignmentMail.linkProblem(address) { throw StoreError.invalidInput(problem) }
        let message = try AssignmentMail.question(assignment.question, link: address, from: mail.from, to: to, asker: asker,
                                                  reminder: assignment.reminderCount + 1)
        return try await deliver(message, kind: .remind, assignment: assignment, to: to)
    }

    /// `queue run`'s part: the deliveries due now (retries of what a server deferred), sent;
    /// a line of what became of them, none when there were none. No `[mail]`: nothing to do
    /// (a queued delivery then waits for it, said in a line).
    package static func drain(store: JournalStore, settings: Settings, environment: [String: String], now: Date) async throws -> [String] {
        guard settings.file?.mail != nil else {
            return try store.nextDeliveryDue() == nil ? [] : ["Emails are queued but [mail] is not set up: see voicejournal mail test"]
        }
        let run = try AssignmentMailRun(store: store, settings: settings, environment: environment, now: now)
        var runner = DeliveryRunner(store: store, settings: run.mail, now: { [now] in Self.clock(now) })
        runner.retryBase = run.retryBase ?? runner.retryBase
        let report = try await runner.run()
        guard !report.finished.isEmpty || report.stopped != nil else { return [] }
        var lines: [String] = []
        let counts = Dictionary(grouping: report.finished, by: \.state).mapValues(\.count)
        let said = [(Delivery.State.sent, "sent"), (.queued, "to be tried again"), (.failed, "refused"), (.unknown, "may have arrived")]
            .compactMap { state, word in counts[state].map { "\($0) \(word)" } }
        lines.append("Emails: " + said.joined(separator: ", "))
        for delivery in report.finished where delivery.state == .failed || delivery.state == .unknown {
            lines.append("  email \(delivery.id ?? 0) to \(delivery.recipient): \(TerminalText.escaped(delivery.reply ?? delivery.state.rawValue))")
        }
        if let stopped = report.stopped { lines.append("Emails stopped: \(TerminalText.escaped(stopped))") }
        return lines
    }

    // MARK: -

    /// `VOICEJOURNAL_MAIL_RETRY_BASE`: the first retry's wait in seconds (tests make it short).
    var retryBase: TimeInterval? { Double(environment["VOICEJOURNAL_MAIL_RETRY_BASE"] ?? "").flatMap { $0 > 0 ? $0 : nil } }

    var asker: String { mail.from.displayName ?? "Someone in your family" }

    func recipient(_ id: Int64) throws -> (AssignmentSummary, MailAddress) {
        let assignment = try store.assignment(id: id)
        if assignment.status == .answered {
            throw StoreError.invalidInput("assignment \(id) is already answered (see voicejournal assignment show \(id))")
        }
        guard let email = try store.assignmentEmail(id), !email.isEmpty else {
            throw StoreError.invalidInput("\(assignment.person) has no email address: add one with "
                + "voicejournal person add \"\(assignment.person)\" --email ADDRESS, or carry the link yourself (assignment link \(id))")
        }
        return (assignment, try MailAddress(email, displayName: assignment.person))
    }

    func decision(_ assignment: AssignmentSummary) throws -> ReminderPolicy.Decision {
        let deliveries = try store.deliveries(assignmentId: assignment.id)
        let pending = deliveries.filter { $0.kind == .remind && ($0.state == .queued || $0.state == .sending) }.count
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = calendar.startOfDay(for: now)
        let dayEnd = calendar.date(byAdding: .day, value: 1, to: day) ?? now.addingTimeInterval(86400)
        let today = try store.remindersSent(toPerson: assignment.personId, from: day, to: dayEnd)
        return ReminderPolicy(perDay: mail.remindersPerDay).decide(
            answered: assignment.status == .answered, reminderCount: assignment.reminderCount,
            lastReminderAt: assignment.lastReminderAt, firstContact: assignment.sentAt ?? assignment.createdAt, pending: pending,
            sentToday: today, dayEnd: dayEnd, now: now)
    }

    /// Queues the message and sends it now; the lines say what became of it. A message the
    /// server refused, or that may or may not have arrived, is an error; one deferred stays queued.
    func deliver(_ message: MailMessage, kind: Delivery.Kind, assignment: AssignmentSummary, to: MailAddress) async throws -> [String] {
        let composed = message.composed(date: now, timeZone: .current)
        let delivery = try store.enqueue(Delivery(assignmentId: assignment.id, kind: kind, recipient: to.address, subject: message.subject,
                                                  message: composed.text, messageId: composed.messageID, now: now))
        return try await sendNow(delivery, assignment: assignment, to: to)
    }

    /// Sends the queued `delivery` now; the lines say what became of it.
    func sendNow(_ delivery: Delivery, assignment: AssignmentSummary, to: MailAddress) async throws -> [String] {
        let kind = delivery.kind
        var runner = DeliveryRunner(store: store, settings: mail, now: { [now] in Self.clock(now) })
        runner.retryBase = retryBase ?? runner.retryBase
        runner.patience = min(mail.sendTimeout, 15)
        let report = try await runner.run(ids: [delivery.id!])
        if let stopped = report.stopped { throw MailError(kind: .invalidConfiguration, description: stopped) }
        let stored = try store.delivery(id: delivery.id!) ?? delivery
        let what = switch kind {
        case .send: "assignment \(assignment.id)'s question"
        case .remind: "a reminder of assignment \(assignment.id)"
        default: "word of assignment \(assignment.id)'s answer"
        }
        let who = TerminalText.escaped(to.description)
        switch stored.state {
        case .sent:
            return ["Sent \(what) to \(who): the server answered \(TerminalText.escaped(stored.reply ?? ""))"]
        case .queued:
            return ["Not sent yet (\(TerminalText.escaped(stored.reply ?? "no answer"))): \(what) stays queued; "
                + "voicejournal queue run tries again after \(LocalDate.short(stored.runAfter))"]
        default:
            guard let outcome = report.outcomes[stored.id!] else { throw StoreError.invalidInput("\(what) was not sent") }
            let next = stored.state == .unknown ? " — see voicejournal assignment show \(assignment.id); "
                + "voicejournal assignment send \(assignment.id) --again sends it again" : ""
            throw MailError(kind: .notSent, description: "\(what) to \(to.address): \(outcome.description)\(next)", outcome: outcome)
        }
    }

    /// The queue's clock: the real one, or from `now` on when `VOICEJOURNAL_NOW` held it.
    static func clock(_ start: Date) -> Date {
        ProcessInfo.processInfo.environment["VOICEJOURNAL_NOW"] == nil ? Date() : start
    }

    static func already(_ earlier: Delivery, id: Int64) -> String {
        let when = LocalDate.short(earlier.sentAt ?? earlier.updatedAt)
        switch earlier.state {
        case .sent: return "assignment \(id)'s question went to \(earlier.recipient) at \(when) "
            + "(\(earlier.reply ?? "sent")); --again sends it again"
        case .unknown: return "assignment \(id)'s question may have reached \(earlier.recipient) at \(when) (the connection broke "
            + "while it was sent); --again sends it again"
        default: return "assignment \(id)'s question is already queued for \(earlier.recipient); voicejournal queue run sends it"
        }
    }
}
