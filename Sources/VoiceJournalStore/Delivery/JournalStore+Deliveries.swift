import Foundation
import GRDB

extension JournalStore {
    /// Queues `delivery`; returns it with its id.
    public func enqueue(_ delivery: Delivery) throws -> Delivery {
        try pool.write { db in
            var delivery = delivery
            try delivery.insert(db)
            return delivery
        }
    }

    /// A delivery by id.
    public func delivery(id: Int64) throws -> Delivery? {
        try pool.read { db in try Delivery.fetchOne(db, key: id) }
    }

    /// An assignment's deliveries, oldest first.
    public func deliveries(assignmentId: Int64) throws -> [Delivery] {
        try pool.read { db in
            try Delivery.filter(Column("assignmentId") == assignmentId).order(Column("id")).fetchAll(db)
        }
    }

    /// Claims the next due delivery (of `ids` only, when given) for `owner`, first settling the
    /// deliveries whose senders are gone — their lease ran out, or their owner is in
    /// `deadOwners`: queued again when the message never began, `unknown` when it did.
    /// Marked `sending` before anything is sent; nil when nothing is due.
    public func claimDelivery(owner: String, lease: TimeInterval, deadOwners: Set<String> = [], ids: Set<Int64>? = nil,
                              now: Date) throws -> Delivery? {
        try pool.write { db in
            try Self.settleAbandonedDeliveries(db, deadOwners: deadOwners, now: now)
            var conditions = "state = 'queued' AND runAfter <= ?"
            var arguments: StatementArguments = [now]
            if let ids {
                guard !ids.isEmpty else { return nil }
                conditions += " AND id IN (\(databaseQuestionMarks(count: ids.count)))"
                arguments += StatementArguments(Array(ids))
            }
            return try Delivery.fetchOne(db, sql: """
                UPDATE delivery SET state = 'sending', attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = (SELECT id FROM delivery WHERE \(conditions) ORDER BY runAfter, id LIMIT 1)
                RETURNING *
                """, arguments: [owner, now.addingTimeInterval(lease), now] + arguments)
        }
    }

    /// Deliveries `sending` for a sender that is gone: queued again (the attempt not counted)
    /// when the message never began, otherwise `unknown`.
    static func settleAbandonedDeliveries(_ db: Database, deadOwners: Set<String>, now: Date) throws {
        var gone = "leaseExpiresAt < ?"
        var arguments: StatementArguments = [now]
        if !deadOwners.isEmpty {
            gone += " OR leaseOwner IN (\(databaseQuestionMarks(count: deadOwners.count)))"
            arguments += StatementArguments(Array(deadOwners))
        }
        // A reminder that may have arrived counts, as one finished as unknown does.
        try db.execute(sql: """
            UPDATE assignment SET reminderCount = reminderCount + 1,
                lastReminderAt = (SELECT max(d.dataStartedAt) FROM delivery d WHERE d.assignmentId = assignment.id AND d.kind = 'remind'
                                  AND d.state = 'sending' AND d.dataStartedAt IS NOT NULL AND (\(gone)))
            WHERE id IN (SELECT assignmentId FROM delivery WHERE kind = 'remind' AND state = 'sending'
                         AND dataStartedAt IS NOT NULL AND (\(gone)))
            """, arguments: arguments + arguments)
        try db.execute(sql: """
            UPDATE delivery SET
                state = CASE WHEN dataStartedAt IS NULL THEN 'queued' ELSE 'unknown' END,
                attempts = CASE WHEN dataStartedAt IS NULL THEN max(0, attempts - 1) ELSE attempts END,
                reply = CASE WHEN dataStartedAt IS NULL THEN reply
                             ELSE 'the sender stopped while the message was being sent: the server may have it' END,
                leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?
            WHERE state = 'sending' AND (\(gone))
            """, arguments: [now] + arguments)
    }

    /// The owners of deliveries being sent now (a sender finds those that are gone).
    public func deliveryOwners() throws -> Set<String> {
        try pool.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT leaseOwner FROM delivery WHERE state = 'sending' AND leaseOwner IS NOT NULL"))
        }
    }

    /// Marks the moment the server accepted DATA, before the message's first byte leaves:
    /// from here on, a sender that dies leaves the delivery `unknown`. False when `owner` no
    /// longer holds it (the message must then not be sent).
    public func markDeliveryStarted(id: Int64, owner: String, now: Date) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE delivery SET dataStartedAt = ?, updatedAt = ? WHERE id = ? AND state = 'sending' AND leaseOwner = ?
                """, arguments: [now, now, id, owner])
            return db.changesCount == 1
        }
    }

    /// Records how the try ended; returns the delivery as it now stands (nil when `owner` no
    /// longer held it). A reminder sent, or whose outcome is unknown, counts on its assignment
    /// (`reminderCount`, `lastReminderAt`); an assignment's link sent sets its `sentAt` (its
    /// status stays pending until answered: `assignment list --status pending` lists it still).
    public func finishDelivery(id: Int64, owner: String, _ attempt: DeliveryAttempt, now: Date) throws -> Delivery? {
        try pool.write { db in
            guard var delivery = try Delivery.fetchOne(db, key: id), delivery.state == .sending, delivery.leaseOwner == owner else {
                return nil
            }
            delivery.leaseOwner = nil
            delivery.leaseExpiresAt = nil
            delivery.updatedAt = now
            switch attempt {
            case .sent(let code, let reply):
                (delivery.state, delivery.replyCode, delivery.reply, delivery.sentAt) = (.sent, code, reply, now)
            case .refused(let code, let reply):
                (delivery.state, delivery.replyCode, delivery.reply) = (.failed, code, reply)
            case .deferred(let code, let reply, let retryAt):
                (delivery.replyCode, delivery.reply) = (code, reply)
                delivery.state = delivery.attempts < delivery.maxAttempts ? .queued : .failed
                delivery.runAfter = retryAt
                delivery.dataStartedAt = nil
            case .unknown(let reply):
                (delivery.state, delivery.reply) = (.unknown, reply)
            case .released(let note):
                delivery.state = .queued
                delivery.attempts = max(0, delivery.attempts - 1)
                delivery.reply = note
                delivery.dataStartedAt = nil
            }
            try delivery.update(db)
            if let assignmentId = delivery.assignmentId {
                if delivery.kind == .remind, delivery.state == .sent || delivery.state == .unknown {
                    try db.execute(sql: """
                        UPDATE assignment SET reminderCount = reminderCount + 1, lastReminderAt = ? WHERE id = ?
                        """, arguments: [now, assignmentId])
                }
                if delivery.kind == .send, delivery.state == .sent {
                    try db.execute(sql: """
                        UPDATE assignment SET sentAt = ? WHERE id = ?
                        """, arguments: [now, assignmentId])
                }
            }
            return delivery
        }
    }

    /// Renews the leases of the deliveries `owner` is sending.
    public func renewDeliveryLeases(owner: String, lease: TimeInterval, now: Date) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE delivery SET leaseExpiresAt = ?, updatedAt = ? WHERE state = 'sending' AND leaseOwner = ?
                """, arguments: [now.addingTimeInterval(lease), now, owner])
        }
    }

    /// How many reminders went to `personId` (sent, or may have) in [`start`, `end`).
    public func remindersSent(toPerson personId: Int64, from start: Date, to end: Date) throws -> Int {
        try pool.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM delivery d JOIN assignment a ON a.id = d.assignmentId
                WHERE d.kind = 'remind' AND d.state IN ('sent', 'unknown', 'sending', 'queued') AND a.personId = ?
                  AND coalesce(d.sentAt, d.createdAt) >= ? AND coalesce(d.sentAt, d.createdAt) < ?
                """, arguments: [personId, start, end]) ?? 0
        }
    }

    /// When the earliest queued delivery (of `ids` only, when given) becomes due; nil if none.
    public func nextDeliveryDue(ids: Set<Int64>? = nil) throws -> Date? {
        try pool.read { db in
            var sql = "SELECT min(runAfter) FROM delivery WHERE state = 'queued'"
            var arguments: StatementArguments = []
            if let ids {
                guard !ids.isEmpty else { return nil }
                sql += " AND id IN (\(databaseQuestionMarks(count: ids.count)))"
                arguments = StatementArguments(Array(ids))
            }
            return try Date.fetchOne(db, sql: sql, arguments: arguments)
        }
    }

    /// The assignment's person's email address (nil when none is known).
    public func assignmentEmail(_ id: Int64) throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT p.email FROM assignment a JOIN person p ON p.id = a.personId WHERE a.id = ?",
                                arguments: [id])
        }
    }

    /// The assignments waiting for an answer whose link went (or that were reminded) before
    /// `before`, with fewer than `maxReminders` reminders: what `remind --due` looks at.
    public func unansweredAssignments(sentBefore before: Date, maxReminders: Int) throws -> [Int64] {
        try pool.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT a.id FROM assignment a
                WHERE a.status != 'answered' AND a.sentAt IS NOT NULL AND a.sentAt <= ? AND a.reminderCount < ?
                ORDER BY a.id
                """, arguments: [before, maxReminders])
        }
    }

    /// The journal owner's email address ("Myself"'s), nil when none is set.
    public func ownerEmail() throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT email FROM person WHERE relationship = 'self' AND email IS NOT NULL AND email != '' ORDER BY id LIMIT 1")
        }
    }

    /// Makes a queued delivery due at `now` (the user asked to send it now); false when it is
    /// not queued (being sent, or finished).
    public func makeDeliveryDue(id: Int64, now: Date) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "UPDATE delivery SET runAfter = ?, updatedAt = ? WHERE id = ? AND state = 'queued'", arguments: [now, now, id])
            return db.changesCount == 1
        }
    }
}
