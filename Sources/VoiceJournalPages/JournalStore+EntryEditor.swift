import Foundation
import VoiceJournalStore
import VoiceJournalSystem

extension JournalStore {
    /// `entry edit`: replaces the entry's typed text, or its transcript, with `text`, or
    /// without it with what `editor` leaves of the current one (see
    /// `correctEntry(id:text:now:edit:)`).
    package func correctEntry(id: Int64, text: String?, editor: EntryEditor, now: Date) async throws -> EntryCorrection {
        try await correctEntry(id: id, text: text, now: now, edit: { try await editor.edit($0, entry: id, folder: home.url.appendingPathComponent("tmp")) })
    }
}
