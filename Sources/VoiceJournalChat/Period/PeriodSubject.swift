import Foundation
import VoiceJournalStore

/// An entry of a week or a month as the model is shown it: its id (the number it is cited
/// by), when it was made, its mood and theme, and its first sentences.
public struct PeriodEntry: Sendable, Equatable, Codable {
    public var id: Int64
    public var createdAt: Date
    public var mood: Mood?
    public var theme: Theme?
    /// The entry's first sentences (typed text, or the transcript as corrected), at most
    /// `PeriodEntry.textLimit` characters; the prompt may cut it shorter.
    public var text: String

    public init(id: Int64, createdAt: Date, mood: Mood?, theme: Theme?, text: String) {
        self.id = id
        self.createdAt = createdAt
        self.mood = mood
        self.theme = theme
        self.text = text
    }

    /// The most of an entry's words kept for a period's prompt: three sentences, 400 characters.
    static let sentenceLimit = 3, textLimit = 400

    /// The start of `text`: its first sentences, on one line, within the limit.
    static func start(of text: String) -> String {
        let sentences = EntrySentences.split(text).prefix(sentenceLimit).map(\.text).joined(separator: " ")
        return ChatText.oneLine(sentences, limit: textLimit)
    }
}

/// What a reflection on a week or a month is about: the period, the journal it covers (nil:
/// all), its numbers counted by SQL, and its entries, oldest first.
public struct PeriodSubject: Sendable, Equatable {
    public var period: JournalPeriod
    /// The journal's name as the journal spells it; nil for every journal's entries.
    public var journal: String?
    public var numbers: PeriodNumbers
    public var entries: [PeriodEntry]

    public init(period: JournalPeriod, journal: String?, numbers: PeriodNumbers, entries: [PeriodEntry]) {
        self.period = period
        self.journal = journal
        self.numbers = numbers
        self.entries = entries
    }

    /// The ids a model may cite.
    public var entryIds: [Int64] { entries.map(\.id) }
}

extension JournalStore {
    /// The subject of a reflection on `period`: its numbers and its entries, of the journal
    /// named `journal` (any case) or of all. Days are `calendar`'s.
    public func periodSubject(_ period: JournalPeriod, journal: String?, calendar: Calendar = .current) throws -> PeriodSubject {
        let name = try journal.map { try self.journal(named: $0).name }
        let numbers = try periodNumbers(period, journal: name, calendar: calendar)
        let entries = try entries(EntryFilter(journal: name, since: period.start, until: period.end)).reversed().map {
            PeriodEntry(id: $0.id, createdAt: $0.createdAt, mood: $0.mood, theme: $0.theme, text: PeriodEntry.start(of: $0.text))
        }
        return PeriodSubject(period: period, journal: name, numbers: numbers, entries: entries)
    }
}
