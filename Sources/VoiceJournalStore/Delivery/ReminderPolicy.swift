import Foundation

/// When an assignment may be reminded: an escalating cooldown — 1 hour after the link went
/// (or the assignment was made, for a link carried by hand), then 24 hours after the first
/// reminder, then 72 hours between each after — and at most `perDay` reminders to one person
/// in a day (the user's calendar day). A reminder sent, or whose outcome is unknown (it may
/// have arrived), counts; one still on its way blocks another.
public struct ReminderPolicy: Sendable, Equatable {
    /// The waits before the first, second, and every later reminder.
    public static let cooldowns: [TimeInterval] = [3600, 24 * 3600, 72 * 3600]
    public static let defaultPerDay = 3

    public var perDay: Int

    public init(perDay: Int = ReminderPolicy.defaultPerDay) {
        self.perDay = perDay
    }

    /// Whether a reminder may go now, and if not why and when it may.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// `next`: the earliest moment a reminder may go (nil: never, e.g. answered).
        case refused(reason: String, next: Date?)
    }

    /// The wait before reminder number `count + 1`.
    public static func cooldown(after count: Int) -> TimeInterval {
        cooldowns[min(count, cooldowns.count - 1)]
    }

    /// The decision for an assignment with `reminderCount` reminders, the last at
    /// `lastReminderAt`, first contact at `firstContact`, `pending` reminders on their way,
    /// its person having had `sentToday` reminders in the day [`dayStart`, `dayEnd`).
    public func decide(answered: Bool, reminderCount: Int, lastReminderAt: Date?, firstContact: Date, pending: Int,
                       sentToday: Int, dayEnd: Date, now: Date) -> Decision {
        if answered { return .refused(reason: "it is answered", next: nil) }
        if pending > 0 { return .refused(reason: "a reminder is already on its way (see assignment show)", next: nil) }
        let wait = Self.cooldown(after: reminderCount)
        let since = lastReminderAt ?? firstContact
        let next = since.addingTimeInterval(wait)
        if now < next {
            let what = reminderCount == 0 ? "the link went" : "the last reminder"
            return .refused(reason: "reminder \(reminderCount + 1) waits \(Self.hours(wait)) after \(what)", next: next)
        }
        if sentToday >= perDay {
            return .refused(reason: "\(sentToday) reminders went to this person today, the most a day ([mail] reminders_per_day)",
                            next: max(dayEnd, next))
        }
        return .allowed
    }

    static func hours(_ seconds: TimeInterval) -> String {
        let hours = Int(seconds / 3600)
        return hours == 1 ? "1 hour" : "\(hours) hours"
    }
}
