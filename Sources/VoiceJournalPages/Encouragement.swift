import VoiceJournalStore

/// A line of encouragement printed the moment an entry is saved: from a pool shipped with
/// voicejournal (offline, no wait), chosen for the entry's mood. Consecutive entries get
/// different lines: the entry's number walks through its mood's lines, so a line comes back
/// only after all the others of its mood have been shown.
package enum Encouragement {
    /// Lines for glad moods (happy, excited, grateful).
    static let glad = [
        "Good days are worth writing down. Well kept.",
        "Saved. You will be glad to hear this one again.",
        "Nice. Moments like this add up.",
        "Kept. It is good to notice what went right.",
        "Saved. Future you will smile at this.",
        "Well said. Joy counts double once it is written down.",
    ]
    /// Lines for hard moods (sad, anxious, stressed, angry).
    static let hard = [
        "Saved. Saying it out loud is a step; be gentle with yourself.",
        "Kept. Hard days belong in the journal too.",
        "Thank you for writing it down. It will not always feel like this.",
        "Saved. You showed up even on a hard day.",
        "Kept. Putting it into words takes some of its weight.",
        "Noted. One breath at a time is enough for today.",
    ]
    /// Lines for a neutral mood, or none given.
    static let steady = [
        "Saved. One more day in your journal.",
        "Kept. Small entries make a long story.",
        "Noted. Showing up is the habit that matters.",
        "Saved. Every entry helps you see the pattern.",
        "Kept. Thanks for taking a minute for yourself.",
        "Saved. Your journal grows one day at a time.",
    ]

    /// The line for entry `entryId` with `mood`.
    package static func line(entryId: Int64, mood: Mood?) -> String {
        let pool: [String] = switch mood {
        case .happy?, .excited?, .grateful?: glad
        case .sad?, .anxious?, .stressed?, .angry?: hard
        case .neutral?, nil: steady
        }
        let index = Int((entryId % Int64(pool.count) + Int64(pool.count)) % Int64(pool.count))
        return pool[index]
    }
}
