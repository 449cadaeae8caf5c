import Foundation
import GRDB
import VoiceJournalStore

extension JournalStore {
    /// What a reflection on entry `id` is about: its sentences, its journal's people, and
    /// numbers about the four weeks before it, all read here (the numbers by SQL).
    public func reflectionSubject(entryId id: Int64) throws -> ReflectionSubject {
        let entry = try entry(id: id)
        let people = try people().filter { $0.relationship != Person.selfRelationship }.map(\.name)
        let numbers = try reflectionNumbers(journal: entry.journal, before: entry.createdAt)
        return ReflectionSubject(entryId: id, journal: entry.journal, createdAt: entry.createdAt,
                                 sentences: EntrySentences.of(entry), people: people, numbers: numbers)
    }

    /// The journal's last four weeks up to `date`, counted: entries, moods, themes.
    func reflectionNumbers(journal: String, before date: Date) throws -> [String] {
        let since = date.addingTimeInterval(-28 * 86_400)
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT entry.mood AS mood, entry.theme AS theme FROM entry JOIN journal ON journal.id = entry.journalId
                WHERE journal.name = ? AND entry.createdAt >= ? AND entry.createdAt <= ?
                """, arguments: [journal, since, date])
        }
        var lines = ["\(rows.count) entries in the four weeks up to this one"]
        func counts(_ column: String) -> String {
            var tally: [String: Int] = [:]
            for row in rows { if let value: String = row[column] { tally[value, default: 0] += 1 } }
            return tally.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
        }
        let moods = counts("mood"), themes = counts("theme")
        if !moods.isEmpty { lines.append("moods set: " + moods) }
        if !themes.isEmpty { lines.append("themes set: " + themes) }
        return lines
    }
}
