import Foundation

/// A week's or a month's numbers, every one counted by SQL over the journal (never by a
/// model): what `reflect --week` and `reflect --month` show, and hand a model as facts.
public struct PeriodNumbers: Codable, Sendable, Equatable {
    /// A name and how often: a theme and its entries.
    public struct Count: Codable, Sendable, Equatable {
        public var name: String
        public var count: Int
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// One of the journal's people and how they are in the period: entries that name them,
    /// and questions they answered (a recording) in it.
    public struct PersonCount: Codable, Sendable, Equatable {
        public var name: String
        public var mentions: Int
        public var answers: Int
        public init(name: String, mentions: Int, answers: Int) {
            self.name = name
            self.mentions = mentions
            self.answers = answers
        }
    }

    /// A part of the period (a day of a week, a week of a month) and its entries' mood.
    public struct TrendPoint: Codable, Sendable, Equatable {
        public var label: String
        public var start: Date
        public var entries: Int
        /// Mean mood score of the part's entries that have a mood; nil when none has.
        public var averageMoodScore: Double?
        public init(label: String, start: Date, entries: Int, averageMoodScore: Double?) {
            self.label = label
            self.start = start
            self.entries = entries
            self.averageMoodScore = averageMoodScore
        }

        // Written out so a part without a mood says `null` in `--json` rather than leaving the key out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(start, forKey: .start)
            try container.encode(entries, forKey: .entries)
            try container.encode(averageMoodScore, forKey: .averageMoodScore)
        }
    }

    public var entries: Int
    /// Length of the entries' complete recordings, in minutes.
    public var minutesSpoken: Double
    /// Words of the entries: a typed entry's text, a spoken one's transcript as corrected
    /// (split at whitespace, as a transcript's words are counted when it is reviewed).
    public var words: Int
    /// Entries per mood, every mood present (zero or not).
    public var moods: [String: Int]
    /// Entries with a mood, and their mean score (`Mood.score`, 1–5); nil when none has one.
    public var moodEntries: Int
    public var averageMoodScore: Double?
    /// The same for the period before (the week before, the month before).
    public var previousEntries: Int
    public var previousAverageMoodScore: Double?
    /// The mood part by part: a week's days, a month's weeks.
    public var trend: [TrendPoint]
    /// The most common themes, most entries first (ties by name), at most three.
    public var themes: [Count]
    /// The journal's people (yourself left out) the period's entries name or who answered a
    /// question in it, most first (ties by name).
    public var people: [PersonCount]
    /// Consecutive days with an entry, ending on the period's last day with an entry (the
    /// run may start before the period). 0 for a period without entries.
    public var streakDays: Int
    /// The period's last entry; nil when it has none.
    public var lastEntryAt: Date?

    public init(entries: Int, minutesSpoken: Double, words: Int, moods: [String: Int], moodEntries: Int, averageMoodScore: Double?,
                previousEntries: Int, previousAverageMoodScore: Double?, trend: [TrendPoint], themes: [Count], people: [PersonCount],
                streakDays: Int, lastEntryAt: Date?) {
        self.entries = entries
        self.minutesSpoken = minutesSpoken
        self.words = words
        self.moods = moods
        self.moodEntries = moodEntries
        self.averageMoodScore = averageMoodScore
        self.previousEntries = previousEntries
        self.previousAverageMoodScore = previousAverageMoodScore
        self.trend = trend
        self.themes = themes
        self.people = people
        self.streakDays = streakDays
        self.lastEntryAt = lastEntryAt
    }

    // Written out so a number that is not there says `null` in `--json` rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(minutesSpoken, forKey: .minutesSpoken)
        try container.encode(words, forKey: .words)
        try container.encode(moods, forKey: .moods)
        try container.encode(moodEntries, forKey: .moodEntries)
        try container.encode(averageMoodScore, forKey: .averageMoodScore)
        try container.encode(previousEntries, forKey: .previousEntries)
        try container.encode(previousAverageMoodScore, forKey: .previousAverageMoodScore)
        try container.encode(trend, forKey: .trend)
        try container.encode(themes, forKey: .themes)
        try container.encode(people, forKey: .people)
        try container.encode(streakDays, forKey: .streakDays)
        try container.encode(lastEntryAt, forKey: .lastEntryAt)
    }
}
