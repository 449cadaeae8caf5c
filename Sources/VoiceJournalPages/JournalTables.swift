import VoiceJournalStore
import VoiceJournalTerminal

/// The listings of the journal's content, as `entry list`, `journal list`, `person list`,
/// `question list`, `assignment list` and `vocabulary list` print them: a table, or one line
/// saying there is nothing (and how to make some) when the listing is empty.
package enum JournalTables {
    /// Entries, one a row: a title before the text, and where an untranscribed one stands.
    package static func entries(_ entries: [EntryDetails]) -> String {
        Table(headers: ["ID", "DATE", "JOURNAL", "KIND", "MOOD", "THEME", "TEXT"], rows: entries.map { entry in
            let text = entry.text.isEmpty ? "(\(entry.transcriptionState.map { "transcription \($0.rawValue)" } ?? "no text"))" : entry.text
            let title = entry.title.map { "\($0): " } ?? ""
            return [String(entry.id), LocalDate.short(entry.createdAt), entry.journal, entry.kind.rawValue,
                    entry.mood?.rawValue ?? "-", entry.theme?.rawValue ?? "-", title + text]
        }).render()
    }

    /// `entry list`: the entries' table, or "No entries.".
    package static func entryList(_ list: [EntryDetails]) -> String {
        list.isEmpty ? "No entries." : entries(list)
    }

    /// `entry list --json`: the entries `filter` keeps (each segment's words too with `words`)
    /// as one JSON document, handed to `write` as the entries are read: the document of any
    /// number of entries, in the memory of one.
    package static func writeEntryList(_ store: JournalStore, _ filter: EntryFilter, words: Bool,
                                       to write: @escaping (String) throws -> Void) throws {
        var stream = JSONArrayStream(write: write)
        try store.forEachEntry(filter, review: true, words: words) { try stream.append($0) }
        try stream.finish()
    }

    /// `journal list`: each journal with its counts, last entry and language (`de`; `-`:
    /// detected; `+en`: translated to English too).
    package static func journals(_ journals: [JournalSummary]) -> String {
        guard !journals.isEmpty else { return "No journals yet. Create one with: voicejournal journal create NAME" }
        return Table(headers: ["NAME", "ENTRIES", "QUESTIONS", "LAST ENTRY", "LANGUAGE", "DESCRIPTION"], rows: journals.map {
            [$0.name, String($0.entryCount), String($0.questionCount), $0.lastEntryAt.map(LocalDate.short) ?? "-",
             LanguageText.column(language: $0.language, translate: $0.translate), $0.description ?? ""]
        }).render()
    }

    /// `person list` (Myself is always there, so it is never empty). LANGUAGE is the code
    /// their answers are sent with (`-`: the journal's, else detected), `+en` when translated.
    package static func people(_ people: [Person]) -> String {
        Table(headers: ["ID", "NAME", "RELATIONSHIP", "LANGUAGE", "EMAIL"], rows: people.map {
            [$0.id.map(String.init) ?? "-", $0.name, $0.relationship, LanguageText.column(language: $0.language, translate: $0.translate),
             $0.email ?? ""]
        }).render()
    }

    /// `question list`.
    package static func questions(_ questions: [QuestionSummary]) -> String {
        guard !questions.isEmpty else { return "No questions yet." }
        return Table(headers: ["ID", "JOURNAL", "ASSIGNED", "QUESTION"], rows: questions.map {
            [String($0.id), $0.journal, String($0.assignmentCount), $0.text]
        }).render()
    }

    /// `assignment list`: who was given which question, and the answer's words.
    package static func assignments(_ assignments: [AssignmentSummary]) -> String {
        guard !assignments.isEmpty else { return "No assignments." }
        return Table(headers: ["ID", "PERSON", "STATUS", "QUESTION", "ANSWER"], rows: assignments.map {
            [String($0.id), $0.person, $0.status.rawValue, $0.question, $0.transcript ?? ""]
        }, maxColumnWidth: 48).render()
    }

    /// `vocabulary list`; `fitting` gives the words of one journal (most recent first) that
    /// its prompt holds, which are marked `*`.
    package static func vocabulary(_ words: [VocabularyWord], fitting: ([String]) -> [String]) -> String {
        guard !words.isEmpty else { return "No vocabulary yet. Add some with: voicejournal vocabulary add WORD…" }
        let sent = Dictionary(grouping: words, by: \.journal).mapValues { Set(fitting($0.map(\.word))) }
        return Table(headers: ["JOURNAL", "WORD", "ADDED", "IN PROMPT"], rows: words.map {
            [$0.journal, $0.word, LocalDate.short($0.createdAt), sent[$0.journal]?.contains($0.word) == true ? "*" : ""]
        }).render()
    }
}
