import GRDB

/// How a journal entry felt: the eight moods of the journaling apps voicejournal grew out of.
public enum Mood: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case happy, grateful, excited, neutral, sad, anxious, stressed, angry

    /// The mood's score from 1 (sad, angry) to 5 (happy), for averages and trends: the scale of
    /// the journaling apps voicejournal grew out of (happy 5, excited and grateful 4, neutral 3,
    /// anxious and stressed 2, sad and angry 1).
    public var score: Int {
        switch self {
        case .happy: 5
        case .grateful, .excited: 4
        case .neutral: 3
        case .anxious, .stressed: 2
        case .sad, .angry: 1
        }
    }
}

/// What a journal entry is about.
public enum Theme: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case personal, work, relationships, family, health, goals, hobbies, school
}

/// What kind of entry: spoken, typed, or one of the guided kinds.
public enum EntryKind: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case voice, text, gratitude
}

/// Where an assignment stands: created, handed to its person, or answered with a recording.
public enum AssignmentStatus: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case pending, sent, answered
}
