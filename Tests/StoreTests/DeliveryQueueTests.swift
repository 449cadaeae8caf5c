import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The delivery queue in SQLite: claimed before anything is sent, finished only by its
/// holder, retried after what may pass, and — when its sender dies — queued again only if
/// the message never began; otherwise unknown, never resent by itself.
@Suite struct DeliveryQueueTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws { journal = try TemporaryJournal() }

    func assignment() throws -> Int64 {
        _ = try store.addPerson(name: "Rose", relationship: "grandmother", email: "rose@example.org")
        _ = try store.createJournal(name: "Family")
        let question = try store.addQuestion(journal: "Family", text: "Where did you grow up?", now: now)
        return try store.assign(questionId: try #require(question.id), to: "Rose", now: now).id
    }

    func queued(_ kind: Delivery.Kind = .send, assignment: Int64?) throws -> Delivery {
        try store.enqueue(Delivery(assignmentId: assignment, kind: kind, recipient: "rose@example.org", subject: "A question",
                                   message: "Subject: A question\r\n\r\nHello\r\n", messageId: "<1@example.org>", now: now))
    }

    @Test func aSentLinkMarksTheAssignmentSentAndIsNeverClaimedAgain() throws {
        let id = try assignment()
        let delivery = try queued(assignment: id)
        let claimed = try #require(try store.claimDelivery(owner: "a", lease: 60, now: now))
        #expect(claimed.id == delivery.id && claimed.state == .sending && claimed.attempts == 1)
        #expect(try store.claimDelivery(owner: "b", lease: 60, now: now) == nil, "one sender at a time")
        #expect(try store.finishDelivery(id: claimed.id!, owner: "b", .sent(code: 250, reply: "250 ok"), now: now) == nil,
                "only its holder finishes it")
        #expect(try store.markDeliveryStarted(id: claimed.id!, owner: "a", now: now))
        let sent = try #require(try store.finishDelivery(id: claimed.id!, owner: "a", .sent(code: 250, reply: "250 2.0.0 queued"), now: now))
        #expect(sent.state == .sent && sent.reply == "250 2.0.0 queued" && sent.sentAt == now)
        #expect(try store.claimDelivery(owner: "a", lease: 60, now: now.addingTimeInterval(3600)) == nil)
        let shown = try store.pool.read { db in try Assignment.fetchOne(db, key: id) }
        #expect(shown?.sentAt == now && shown?.status == .pending, "waiting for its answer still")
    }

    @Test func aTransientFailureWaitsItsTurnAndAPermanentOneIsNotTriedAgain() throws {
        let id = try assignment()
        let first = try queued(assignment: id)
        let claimed = try #require(try store.claimDelivery(owner: "a", lease: 60, now: now))
        let later = now.addingTimeInterval(30)
        let deferred = try #require(try store.finishDelivery(id: claimed.id!, owner: "a",
                                                             .deferred(code: 421, reply: "421 busy", retryAt: later), now: now))
        #expect(deferred.state == .queued && deferred.replyCode == 421)
        #expect(try store.claimDelivery(owner: "a", lease: 60, now: now.addingTimeInterval(29)) == nil, "not before its retry")
        let again = try #require(try store.claimDelivery(owner: "a", lease: 60, now: later))
        #expect(again.id == first.id && again.attempts == 2)
        let refused = try #require(try store.finishDelivery(id: again.id!, owner: "a", .refused(code: 550, reply: "550 no such user"), now: later))
        #expect(refused.state == .failed && refused.reply == "550 no such user")
        #expect(try store.claimDelivery(owner: "a", lease: 60, now: later.addingTimeInterval(86400)) == nil)
    }

    @Test func aDeadSendersDeliveryIsQueuedAgainOnlyIfItsMessageNeverBegan() throws {
        let id = try assignment()
        let before = try queued(assignment: id)
        let during = try queued(.remind, assignment: id)
        _ = try #require(try store.claimDelivery(owner: "dead:1", lease: 60, ids: [before.id!], now: now))
        _ = try #require(try store.claimDelivery(owner: "dead:1", lease: 60, ids: [during.id!], now: now))
        #expect(try store.markDeliveryStarted(id: during.id!, owner: "dead:1", now: now))
        #expect(try store.deliveryOwners() == ["dead:1"])
        // Another sender finds the owner gone: the one that never began is claimed again (its
        // try not counted); the one whose message began is unknown and left alone.
        let next = try #require(try store.claimDelivery(owner: "b", lease: 60, deadOwners: ["dead:1"], now: now))
        #expect(next.id == before.id && next.attempts == 1)
        let unknown = try #require(try store.delivery(id: during.id!))
        #expect(unknown.state == .unknown && unknown.reply?.contains("may have it") == true)
        _ = try store.finishDelivery(id: next.id!, owner: "b", .sent(code: 250, reply: "250 ok"), now: now)
        #expect(try store.claimDelivery(owner: "b", lease: 60, now: now.addingTimeInterval(86400)) == nil, "never resent by itself")
        // A reminder whose outcome is unknown counts: it may have arrived.
        let shown = try store.pool.read { db in try Assignment.fetchOne(db, key: id) }
        #expect(shown?.reminderCount == 1 && shown?.lastReminderAt == now, "a reminder that may have arrived counts")
    }

    @Test func theCooldownStepsAndTheDailyCapHoldAtTheirEdges() {
        let policy = ReminderPolicy(perDay: 3)
        let sent = now
        func decide(count: Int, last: Date?, at: Date, today: Int = 0) -> ReminderPolicy.Decision {
            policy.decide(answered: false, reminderCount: count, lastReminderAt: last, firstContact: sent, pending: 0,
                          sentToday: today, dayEnd: at.addingTimeInterval(3600 * 5), now: at)
        }
        #expect(decide(count: 0, last: nil, at: sent.addingTimeInterval(59 * 60)) != .allowed)
        #expect(decide(count: 0, last: nil, at: sent.addingTimeInterval(61 * 60)) == .allowed)
        let first = sent.addingTimeInterval(3600)
        #expect(decide(count: 1, last: first, at: first.addingTimeInterval(24 * 3600 - 60)) != .allowed)
        #expect(decide(count: 1, last: first, at: first.addingTimeInterval(24 * 3600 + 60)) == .allowed)
        #expect(decide(count: 2, last: first, at: first.addingTimeInterval(72 * 3600 - 60)) != .allowed)
        #expect(decide(count: 5, last: first, at: first.addingTimeInterval(72 * 3600 + 60)) == .allowed, "72 h between every later one")
        if case .refused(let reason, let next) = decide(count: 0, last: nil, at: sent.addingTimeInterval(59 * 60)) {
            #expect(next == sent.addingTimeInterval(3600) && reason.contains("1 hour"))
        }
        #expect(decide(count: 0, last: nil, at: sent.addingTimeInterval(7200), today: 2) == .allowed)
        guard case .refused(let reason, _) = decide(count: 0, last: nil, at: sent.addingTimeInterval(7200), today: 3) else {
            Issue.record("the fourth reminder of a day must be refused")
            return
        }
        #expect(reason.contains("3 reminders"))
    }
}
