import Foundation
import VoiceJournalStore

/// A reflection on an entry as checked here: every field the model gave that passed the
/// checks, the highlights resolved to the entry's own sentences (their text and time come
/// from the entry, never from the model).
public struct Reflection: Sendable, Equatable, Codable {
    /// A sentence of the entry the model pointed at.
    public struct Highlight: Sendable, Equatable, Codable {
        public var sentence: Int
        public var text: String
        public var start: Double?
        public var end: Double?
    }

    public var summary: String
    /// The suggested mood, unless it was withheld (see `moodWithheld`).
    public var mood: Mood?
    /// How strongly, 1 to 5.
    public var intensity: Int
    /// Why the model's mood is not suggested: its feeling contradicts the entry's words.
    public var moodWithheld: String?
    public var themes: [Theme]
    /// People of the journal the entry names (each name is in the entry's words).
    public var people: [String]
    public var highlights: [Highlight]
    public var questions: [String]
    public var insight: String
    public var encouragement: String

    public init(summary: String, mood: Mood?, intensity: Int, moodWithheld: String? = nil, themes: [Theme], people: [String],
                highlights: [Highlight], questions: [String], insight: String, encouragement: String) {
        self.summary = summary
        self.mood = mood
        self.intensity = intensity
        self.moodWithheld = moodWithheld
        self.themes = themes
        self.people = people
        self.highlights = highlights
        self.questions = questions
        self.insight = insight
        self.encouragement = encouragement
    }
}

/// What a reflection is about and what the model is offered: the entry's numbered
/// sentences, the lists its answer must choose from, and numbers about the journal.
public struct ReflectionSubject: Sendable, Equatable {
    public var entryId: Int64
    public var journal: String
    public var createdAt: Date
    public var sentences: [EntrySentence]
    /// The journal's people by name (the user's own "Myself" left out).
    public var people: [String]
    /// Lines of numbers about the last weeks, computed with SQL (the model only narrates them).
    public var numbers: [String]

    public init(entryId: Int64, journal: String, createdAt: Date, sentences: [EntrySentence], people: [String], numbers: [String]) {
        self.entryId = entryId
        self.journal = journal
        self.createdAt = createdAt
        self.sentences = sentences
        self.people = people
        self.numbers = numbers
    }

    /// The entry's words, as the checks read them.
    public var text: String { sentences.map(\.text).joined(separator: " ") }
}
