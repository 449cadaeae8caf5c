import GRDB

extension Migrations {
    /// The nudges to journal (`nudge`): one a day at most.
    package static let nudges = "v21-nudges"

    /// `nudge`: one row per local day (`day`, "YYYY-MM-DD", unique), claimed before anything is
    /// sent (`state` "claimed", by `claimedBy`, a `LeaseOwner`) and kept once sent ("sent",
    /// with the channel, when, and what the service or mail server answered). The unique day is
    /// what keeps two runs at once (two timers, a timer and a person) from both sending: only
    /// one claim of a day can be written. A send that fails deletes its claim, so a later run
    /// tries again.
    static func createNudges(_ db: Database) throws {
        try db.create(table: "nudge") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("day", .text).notNull().unique()
            t.column("state", .text).notNull().check(sql: "state IN ('claimed', 'sent')")
            t.column("channel", .text).check(sql: "channel IS NULL OR channel IN ('desktop', 'email')")
            t.column("claimedBy", .text)
            t.column("claimedAt", .datetime).notNull()
            t.column("sentAt", .datetime)
            // The notification's id, or the mail server's last reply.
            t.column("reply", .text)
        }
    }
}
