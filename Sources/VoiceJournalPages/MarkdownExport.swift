import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// Journals as Markdown: each entry with its date, kind, mood and theme, its text or
/// transcript and a relative link to its audio; then the journal's answered questions.
struct MarkdownExport {
    /// One journal's document and the audio files it links to as copies.
    struct Document {
        let journal: String
        let text: String
        let audioCopies: [JournalExport.AudioCopy]
        /// Recordings whose audio was not copied, and why.
        let leftOut: [JournalExport.LeftOut]
    }

    typealias AudioCopy = JournalExport.AudioCopy
    typealias LeftOut = JournalExport.LeftOut

    let store: JournalStore
    let journal: String?
    let since: Date?
    let until: Date?
    /// The folder the documents will be in: links are relative to it.
    let linksFrom: URL
    /// Link to copies under `audio/` (made by the caller) rather than to the files where they are.
    let copyAudio: Bool

    /// Every journal's document (or the named one's), oldest entry first, as a journal reads.
    func documents() throws -> [Document] {
        let journals = try store.journals().filter { summary in
            journal.map { summary.name.caseInsensitiveCompare($0) == .orderedSame } ?? true
        }
        if let journal, journals.isEmpty { _ = try store.journal(named: journal) }  // throws the helpful error
        let answers = try store.assignments(status: .answered).filter { answer in
            guard let at = answer.answeredAt else { return false }
            return since.map { at >= $0 } ?? true && until.map { at < $0 } ?? true
        }
        return try journals.map { summary in
            let entries = try store.entries(EntryFilter(journal: summary.name, since: since, until: until), review: true).reversed()
            var copies: [AudioCopy] = []
            var leftOut: [LeftOut] = []
            var text = "# \(summary.name)\n\n"
            if let description = summary.description { text += "\(description)\n\n" }
            for entry in entries {
                let tags = [entry.kind.rawValue, entry.mood?.rawValue, entry.theme?.rawValue].compactMap { $0 }
                text += "## \(LocalDate.short(entry.createdAt))" + (entry.title.map { " — \($0)" } ?? "")
                    + " (\(tags.joined(separator: ", ")))\n\n"
                if let recordingId = entry.recordingId, let path = entry.audioPath, !path.isEmpty,
                   let recording = try store.recording(id: recordingId) {
                    text += try audioLine(recording, at: entry.createdAt, copies: &copies, leftOut: &leftOut)
                }
                if let language = LanguageText.named(entry.language) { text += "Language: \(language)\n\n" }
                text += (entry.text.isEmpty && (entry.unheard ?? []).isEmpty ? "_(not transcribed yet)_" : Self.reading(entry)) + "\n\n"
                if let translated = TranscriptReading.translationText(translation: entry.translation, note: entry.translationNote) {
                    text += translated + "\n\n"
                }
            }
            let answered = answers.filter { $0.journal == summary.name }.sorted { ($0.answeredAt ?? .distantPast) < ($1.answeredAt ?? .distantPast) }
            if !answered.isEmpty { text += "## Answered questions\n\n" }
            for answer in answered {
                text += "### \(answer.question)\n\n\(answer.person), \(answer.answeredAt.map(LocalDate.short) ?? "")\n\n"
                if let recordingId = answer.recordingId, let recording = try store.recording(id: recordingId) {
                    text += try audioLine(recording, at: answer.answeredAt ?? recording.createdAt, copies: &copies, leftOut: &leftOut)
                }
                // The stored transcript, for its unheard stretches; the listing's text otherwise.
                let stored = try answer.recordingId.flatMap { try store.transcript(recordingId: $0) }
                if let language = LanguageText.named(stored?.language) { text += "Language: \(language)\n\n" }
                let said = stored.map(TranscriptReading.text) ?? answer.transcript
                text += (said.map { $0.isEmpty ? "_(nothing was heard)_" : $0 } ?? "_(not transcribed yet)_") + "\n\n"
                if let translated = TranscriptReading.translationText(translation: stored?.translation, note: stored?.translationNote) {
                    text += translated + "\n\n"
                }
            }
            return Document(journal: summary.name, text: text, audioCopies: copies, leftOut: leftOut)
        }
    }

    /// What the entry says: its typed text, else its transcript with each unheard stretch
    /// marked in its place (`[unheard 02:14–02:17]`).
    static func reading(_ entry: EntryDetails) -> String {
        guard entry.content.isEmpty, let transcript = entry.transcript else { return entry.text }
        return TranscriptReading.text(transcript, segments: entry.segments ?? [], unheard: entry.unheard ?? [])
    }

    /// "Audio: [name](link) (12.5 s)": to a copy under `audio/` (noted in `copies`), or to
    /// the file where it is, relative to the export folder. A file that is no longer the
    /// recording (see `RecordingCopy`) is neither copied nor linked: noted in `leftOut`.
    private func audioLine(_ recording: Recording, at date: Date, copies: inout [AudioCopy], leftOut: inout [LeftOut]) throws -> String {
        let file = URL(fileURLWithPath: recording.path)
        let recordingId = try recording.storedId()
        let duration = String(format: " (%.1f s)", recording.durationSeconds)
        let link: String
        if copyAudio {
            if let reason = RecordingCopy.problem(recording) {
                leftOut.append(LeftOut(recordingId: recordingId, path: recording.path, reason: reason))
                return "Audio: \(file.lastPathComponent)\(duration), not exported: \(reason)\n\n"
            }
            let day = String(LocalDate.short(date).prefix(10))
            link = "audio/\(day)-\(recordingId)" + (file.pathExtension.isEmpty ? "" : ".\(file.pathExtension)")
            copies.append(AudioCopy(recording: recording, relativePath: link))
        } else {
            link = Self.relativePath(from: linksFrom, to: file)
        }
        let target = link.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? link
        return "Audio: [\(file.lastPathComponent)](\(target))\(duration)\n\n"
    }

    /// The path of `file` as seen from `folder`: `../audio/2026/11/3.wav`.
    static func relativePath(from folder: URL, to file: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents
        let target = file.standardizedFileURL.pathComponents
        let shared = zip(base, target).prefix { $0 == $1 }.count
        let ups = Array(repeating: "..", count: base.count - shared)
        return (ups + target[shared...]).joined(separator: "/")
    }
}
