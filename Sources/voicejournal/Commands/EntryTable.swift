import Store
import Terminal

/// The table `entry list` and `journal show` print.
enum EntryTable {
    static func render(_ entries: [EntryDetails]) -> String {
        Table(headers: ["ID", "DATE", "JOURNAL", "KIND", "MOOD", "TEXT"], rows: entries.map { entry in
            let text = entry.text.isEmpty ? "(\(entry.transcriptionState.map { "transcription \($0.rawValue)" } ?? "no text"))" : entry.text
            let title = entry.title.map { "\($0): " } ?? ""
            return [String(entry.id), shortDate(entry.createdAt), entry.journal, entry.kind.rawValue,
                    entry.mood?.rawValue ?? "-", title + text]
        }).render()
    }
}
