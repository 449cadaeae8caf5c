import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// An export ready to print or to write into a folder: its documents by file name, the audio
/// to copy beside them (`export --with-audio`), and the audio left out with the reason.
package struct JournalExport: Sendable {
    /// One file of the export: its name in the folder and its text, held whole or written
    /// piece by piece as it is read from the journal (an archive of any size).
    package struct Document: Sendable {
        /// The file name in the export folder (`Family.md`, `voicejournal.json`).
        package let name: String
        private let body: @Sendable (_ write: (String) throws -> Void) throws -> Void

        /// A document named `name` holding `text`.
        package init(name: String, text: String) {
            self.name = name
            body = { try $0(text) }
        }

        /// A document named `name` whose text `body` writes piece by piece through the function it is given.
        package init(name: String, streaming body: @escaping @Sendable (_ write: (String) throws -> Void) throws -> Void) {
            self.name = name
            self.body = body
        }

        /// Hands the document's text to `write`, piece by piece.
        package func write(_ write: (String) throws -> Void) throws {
            try withoutActuallyEscaping(write) { try body($0) }
        }

        /// The whole text (a streamed document is read into memory: for small ones and tests).
        package var text: String {
            get throws {
                var text = ""
                try write { text += $0 }
                return text
            }
        }
    }

    /// An audio file to copy next to the documents (`--with-audio`).
    package struct AudioCopy: Sendable {
        /// The recording whose file is copied (checked again while copying).
        package let recording: Recording
        /// Where the copy goes, relative to the export folder (`audio/…`).
        package let relativePath: String
        /// The path the audio is copied from.
        package var source: String { recording.path }
    }

    /// A recording's audio not copied (`--with-audio`): the file at its path is not the recording.
    package struct LeftOut: Sendable, Equatable {
        package let recordingId: Int64
        /// The path the recording's row names.
        package let path: String
        /// Why its file was not copied, in words.
        package let reason: String
    }

    /// The files of the export, in the order they are printed or written.
    package var documents: [Document]
    /// Audio to copy into the export folder (`--with-audio`), each checked again as it is copied.
    package var audioCopies: [AudioCopy]
    /// Audio already found not to be its recording: neither copied nor linked.
    package var leftOut: [LeftOut]
    /// What follows the documents on stdout: Markdown documents end with a blank line.
    let trailer: String

    /// An export of `documents` alone (no audio), printed one after the other.
    package init(documents: [Document]) {
        self.init(documents: documents, audioCopies: [], leftOut: [], trailer: "")
    }

    init(documents: [Document], audioCopies: [AudioCopy], leftOut: [LeftOut], trailer: String) {
        self.documents = documents
        self.audioCopies = audioCopies
        self.leftOut = leftOut
        self.trailer = trailer
    }

    /// The export as one text for stdout (see `print(_:)`), held whole: for small exports and tests.
    package var text: String {
        get throws {
            var text = ""
            try print { text += $0 }
            return text
        }
    }

    /// Hands the export, as stdout shows it, to `write` piece by piece: the documents, a
    /// blank line between two.
    package func print(_ write: (String) throws -> Void) throws {
        for (index, document) in documents.enumerated() {
            if index > 0 { try write("\n") }
            try document.write(write)
        }
        try write(trailer)
    }

    /// Every journal (or the one named) as Markdown, one document each (`<journal>.md`), its
    /// audio linked relative to `linksFrom`, or to copies under `audio/` with `copyAudio`.
    package static func markdown(_ store: JournalStore, journal: String?, since: Date?, until: Date?,
                                linksFrom: URL, copyAudio: Bool) throws -> JournalExport {
        let documents = try MarkdownExport(store: store, journal: journal, since: since, until: until,
                                           linksFrom: linksFrom, copyAudio: copyAudio).documents()
        return JournalExport(documents: documents.map { Document(name: fileName($0.journal) + ".md", text: $0.text) },
                             audioCopies: documents.flatMap(\.audioCopies), leftOut: documents.flatMap(\.leftOut),
                             trailer: "\n")
    }

    /// The journal, or the part `selection` keeps, as one JSON archive (`voicejournal.json`)
    /// that `import` reads back. A journal name that is not there is an error, not an empty export.
    /// Written as it is read, row by row: an export of any size takes the memory of one row.
    package static func archive(_ store: JournalStore, _ selection: ArchiveSelection, now: Date) throws -> JournalExport {
        if let journal = selection.journal { _ = try store.journal(named: journal) }
        let archiver = store.archiver
        return JournalExport(documents: [Document(name: "voicejournal.json") { write in
            try ArchiveText.write(archiver, selection, now: now, to: write)
        }])
    }

    /// A journal name as a file name: path separators and leading dots replaced.
    package static func fileName(_ name: String) -> String {
        let cleaned = name.map { $0 == "/" || $0 == "\0" ? "-" : $0 }
        let result = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return result.isEmpty ? "journal" : result
    }
}
