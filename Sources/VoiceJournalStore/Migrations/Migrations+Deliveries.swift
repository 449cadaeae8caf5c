import GRDB

extension Migrations {
    /// Email deliveries (assignment links, reminders, answer notifications) and an
    /// assignment's reminders.
    package static let deliveries = "v20-deliveries"

    /// `delivery`: one message to send, a job of its own queue (leased, retried with backoff).
    /// The message is composed once and kept, so a retry sends the very same bytes with the
    /// same Message-ID. `dataStartedAt` is set the moment the server accepted DATA, before the
    /// first byte of the message: a delivery found `sending` after its sender died is queued
    /// again only when that moment never came, and is otherwise `unknown` — never resent by
    /// itself. `assignment` gains its reminder count and the last reminder's time.
    static func createDeliveries(_ db: Database) throws {
        try db.create(table: "delivery") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("assignmentId", .integer).indexed().references("assignment", onDelete: .cascade)
            t.column("kind", .text).notNull().check(sql: "kind IN ('send', 'remind', 'notify', 'test')")
            t.column("recipient", .text).notNull()
            t.column("subject", .text).notNull()
            // ASCII: headers with encoded words, bodies in base64 or quoted-printable.
            t.column("message", .text).notNull()
            t.column("messageId", .text).notNull()
            t.column("state", .text).notNull()
                .check(sql: "state IN ('queued', 'sending', 'sent', 'failed', 'unknown', 'cancelled')")
            t.column("attempts", .integer).notNull()
            t.column("maxAttempts", .integer).notNull()
            t.column("runAfter", .datetime).notNull()
            t.column("leaseOwner", .text)
            t.column("leaseExpiresAt", .datetime)
            t.column("dataStartedAt", .datetime)
            // The server's last reply ("550 5.1.1 no such user"), or what went wrong before one.
            t.column("replyCode", .integer)
            t.column("reply", .text)
            t.column("sentAt", .datetime)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(index: "delivery_due", on: "delivery", columns: ["state", "runAfter"])
        try db.alter(table: "assignment") { t in
            t.add(column: "reminderCount", .integer).notNull().defaults(to: 0)
            t.add(column: "lastReminderAt", .datetime)
        }
    }
}
