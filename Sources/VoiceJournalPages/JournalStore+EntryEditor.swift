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

    /// The text of a new typed entry (`entry add`): `given` as it is (`-`: standard input),
    /// else standard input when it is not a terminal (`echo … | voicejournal entry add`), else
    /// what the user writes in `editor`. Text from standard input or the editor is trimmed;
    /// none at all is refused, and nothing is added. An unknown `journal` is refused first,
    /// before anyone writes words that could not be kept.
    package func newEntryText(_ given: String?, journal: String, editor: EntryEditor, input: FileHandle = .standardInput) async throws -> String {
        if journal.caseInsensitiveCompare(Journal.defaultName) != .orderedSame { _ = try self.journal(named: journal) }
        if let given, given != "-" { return given }
        let fromInput = given == "-" || isatty(input.fileDescriptor) == 0
        let text = try fromInput ? Self.text(of: input) : await editor.edit("", entry: nil, folder: home.url.appendingPathComponent("tmp"))
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.isEmpty else { return trimmed }
        if fromInput { throw StoreError.invalidInput("standard input held no text; no entry was added") }
        throw EditorError(.empty, "nothing was written in the editor (\(editor.command)); no entry was added")
    }

    /// The most standard input may hold for one entry: a typed entry is text someone wrote.
    static let longestTypedEntry = 4 << 20

    /// Standard input as UTF-8 text, read up to `longestTypedEntry` bytes (more is refused).
    private static func text(of input: FileHandle) throws -> String {
        var data = Data()
        while data.count <= longestTypedEntry, let chunk = try input.read(upToCount: 64 << 10), !chunk.isEmpty {
            data.append(chunk)
        }
        guard data.count <= longestTypedEntry else {
            throw StoreError.invalidInput("standard input holds more than \(longestTypedEntry >> 20) MiB; an entry is at most that; no entry was added")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw StoreError.invalidInput("standard input is not UTF-8 text; no entry was added")
        }
        return text
    }
}
