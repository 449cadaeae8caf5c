import Foundation
import GRDB
import VoiceJournalSystem

/// A nudge to journal, one local day's: claimed while it is being sent, kept once sent.
public struct Nudge: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "nudge"

    /// How it reached the user.
    public enum Channel: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        /// A desktop notification (the freedesktop Notifications service).
        case desktop
        case email
    }

    /// Where it stands: claimed by a run that is sending it, or sent.
    public enum State: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case claimed
        case sent
    }

    public var id: Int64?
    /// The user's local day, "YYYY-MM-DD": one nudge each.
    public var day: String
    public var state: State
    /// How it was sent; nil while claimed.
    public var channel: Channel?
    /// The run that claimed it (a `LeaseOwner`'s text).
    public var claimedBy: String?
    public var claimedAt: Date
    public var sentAt: Date?
    /// The notification's id, or the mail server's reply.
    public var reply: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What a run found when it came to nudge.
package enum NudgeClaim: Sendable, Equatable {
    /// An entry was made that day: the latest one, and when.
    case journaled(entryId: Int64, at: Date)
    /// The day's nudge was sent, or another run is sending it (its claim, not yet stale).
    case taken(Nudge)
    /// Nothing stands in the way, and nothing was claimed (it was not asked for).
    case open
    /// The day is this run's to nudge: its claim, to finish (`finishNudge`) or give back (`releaseNudge`).
    case claimed(Nudge)
}

extension JournalStore {
    /// A claim older than this is taken over: its run has long since finished or failed (a
    /// notification waits 5 s at most), so it died before it could say which (killed, the
    /// machine off). A claim by a process of this machine that is gone is taken over at once.
    package static let staleNudgeClaim: TimeInterval = 15 * 60

    /// Looks at `day` (the local day from `start` to `end`) and, with `claiming`, claims its
    /// nudge for `owner`: in one IMMEDIATE transaction, so of two runs at once only one
    /// finds the day open and claims it (and the unique day would refuse a second claim).
    /// An entry made that day, or a nudge sent or being sent, stands in the way.
    package func claimNudge(day: String, from start: Date, to end: Date, owner: LeaseOwner, claiming: Bool,
                            now: Date) throws -> NudgeClaim {
        try pool.immediateWrite { db in
            if let latest = try Row.fetchOne(db, sql: """
                SELECT id, createdAt FROM entry WHERE createdAt >= ? AND createdAt < ? ORDER BY createdAt DESC, id DESC LIMIT 1
                """, arguments: [start, end]) {
                return .journaled(entryId: latest["id"], at: latest["createdAt"])
            }
            let existing = try Nudge.filter(Column("day") == day).fetchOne(db)
            if let existing, !Self.isStale(existing, now: now) { return .taken(existing) }
            guard claiming else { return .open }
            var claim = Nudge(id: existing?.id, day: day, state: .claimed, channel: nil, claimedBy: owner.description,
                              claimedAt: now, sentAt: nil, reply: nil)
            if existing == nil { try claim.insert(db) } else { try claim.update(db) }
            return .claimed(claim)
        }
    }

    /// Whether `nudge` is a claim whose run is gone: a process of this machine that no longer
    /// exists, or one made longer than `staleNudgeClaim` ago (or in the future: a clock set back).
    static func isStale(_ nudge: Nudge, now: Date) -> Bool {
        guard nudge.state == .claimed else { return false }
        if let owner = nudge.claimedBy.flatMap(LeaseOwner.init), owner.isGone { return true }
        let age = now.timeIntervalSince(nudge.claimedAt)
        return age > Self.staleNudgeClaim || age < -Self.staleNudgeClaim
    }

    /// Records `claim` as sent through `channel` at `now`, with the service's `reply`; nil when
    /// the claim is no longer this run's (taken over as stale), when nothing is changed.
    package func finishNudge(_ claim: Nudge, channel: Nudge.Channel, reply: String, now: Date) throws -> Nudge? {
        try pool.immediateWrite { db in
            guard var current = try Nudge.fetchOne(db, key: claim.id),
                  current.state == .claimed, current.claimedBy == claim.claimedBy else { return nil }
            (current.state, current.channel, current.sentAt, current.reply) = (.sent, channel, now, String(reply.prefix(Self.longestNudgeReply)))
            try current.update(db)
            return current
        }
    }

    /// Gives `claim` back (its send failed), so a later run may nudge that day; a claim taken
    /// over since is left alone.
    package func releaseNudge(_ claim: Nudge) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM nudge WHERE id = ? AND state = 'claimed' AND claimedBy IS ?",
                           arguments: [claim.id, claim.claimedBy])
        }
    }

    /// The nudges sent, the latest first (at most `limit`).
    package func nudges(limit: Int = 100) throws -> [Nudge] {
        try pool.read { db in
            try Nudge.filter(Column("state") == Nudge.State.sent.rawValue).order(Column("day").desc).limit(limit).fetchAll(db)
        }
    }

    /// The most characters of a reply kept (a mail server's last line is short; a crafted one is cut).
    package static let longestNudgeReply = 1000
}
