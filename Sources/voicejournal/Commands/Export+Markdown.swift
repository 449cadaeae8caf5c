import Foundation
import Store

/// Journals as Markdown: each entry with its date, kind, mood and theme, its text or
/// transcript and a relative link to its audio; then the journal's answered questions.
struct MarkdownExport {
    /// One journal's document and the audio files it links to as copies.
    struct Document {
        let journal: String
        let text: String
        let audioCopies: [AudioCopy]
    }

    /// An audio file to copy next to the documents (`--with-audio`).
    struct AudioCopy {
        /// Where the audio is now.
        let source: String
        /// Where the copy goes, relative to the export folder (`audio/…`).
        let relativePath: String
    }

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
            let entries = try store.entries(EntryFilter(journal: summary.name, since: since, until: until)).reversed()
            var copies: [AudioCopy] = []
            var text = "# \(summary.name)\n\n"
            if let description = summary.description { text += "\(description)\n\n" }
            for entry in entries {
                let tags = [entry.kind.rawValue, entry.mood?.rawValue, entry.theme?.rawValue].compactMap { $0 }
                text += "## \(shortDate(entry.createdAt))" + (entry.title.map { " — \($0)" } ?? "")
                    + " (\(tags.joined(separator: ", ")))\n\n"
                if let recordingId = entry.recordingId, let path = entry.audioPath, !path.isEmpty {
                    text += audioLine(path: path, recordingId: recordingId, at: entry.createdAt,
                                          seconds: entry.durationSeconds, copies: &copies)
                }
                text += (entry.text.isEmpty ? "_(not transcribed yet)_" : entry.text) + "\n\n"
            }
            let answered = answers.filter { $0.journal == summary.name }.sorted { ($0.answeredAt ?? .distantPast) < ($1.answeredAt ?? .distantPast) }
            if !answered.isEmpty { text += "## Answered questions\n\n" }
            for answer in answered {
                text += "### \(answer.question)\n\n\(answer.person), \(answer.answeredAt.map(shortDate) ?? "")\n\n"
                if let recordingId = answer.recordingId, let recording = try store.recording(id: recordingId) {
                    text += audioLine(path: recording.path, recordingId: recordingId, at: answer.answeredAt ?? recording.createdAt,
                                          seconds: recording.durationSeconds, copies: &copies)
                }
                text += (answer.transcript.map { $0.isEmpty ? "_(nothing was heard)_" : $0 } ?? "_(not transcribed yet)_") + "\n\n"
            }
            return Document(journal: summary.name, text: text, audioCopies: copies)
        }
    }

    /// "Audio: [name](link) (12.5 s)": to a copy under `audio/` (noted in `copies`), or to
    /// the file where it is, relative to the export folder.
    private func audioLine(path: String, recordingId: Int64, at date: Date, seconds: Double?,
                           copies: inout [AudioCopy]) -> String {
        let file = URL(fileURLWithPath: path)
        let link: String
        if copyAudio {
            let day = String(shortDate(date).prefix(10))
            link = "audio/\(day)-\(recordingId)" + (file.pathExtension.isEmpty ? "" : ".\(file.pathExtension)")
            copies.append(AudioCopy(source: path, relativePath: link))
        } else {
            link = Self.relativePath(from: linksFrom, to: file)
        }
        let duration = seconds.map { String(format: " (%.1f s)", $0) } ?? ""
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
