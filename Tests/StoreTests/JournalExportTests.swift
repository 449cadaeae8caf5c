import Foundation
import VoiceJournalPages
@testable import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// `export` and `import` as the library makes them: the Markdown document, the file names,
/// the folder it writes into, and the one-line refusals `ExportImportTests` and
/// `JournalCommandTests` read from the command.
@Suite(.onTestThreads) struct JournalExportTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    /// A local time, as the command's `--date` reads one.
    func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) throws -> Date {
        try #require(Calendar.current.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)))
    }

    @Test func markdownHasADocumentPerJournalWithEachEntrysDateTagsAndText() throws {
        _ = try store.addEntry(journal: nil, title: nil, content: "Baked bread with Rose", mood: .happy, theme: .family,
                               createdAt: try local(2026, 11, 1, 9, 0))
        let export = try JournalExport.markdown(store, journal: nil, since: nil, until: nil,
                                                linksFrom: journal.folder.url, copyAudio: false)
        #expect(export.documents.map(\.name) == ["Personal.md"])
        let text = try #require(try export.documents.first?.text)
        #expect(text.hasPrefix("# Personal\n\n"))
        #expect(text.contains("## 2026-11-01 09:00 (text, happy, family)\n\nBaked bread with Rose\n"))
        #expect(try export.text == text + "\n", "printed with a blank line after it")
        #expect(export.audioCopies.isEmpty && export.leftOut.isEmpty)
    }

    @Test(arguments: [("Family", "Family"), ("a/b", "a-b"), (".hidden", "hidden"), ("...", "journal")])
    func journalNamesBecomeSafeFileNames(_ name: String, _ file: String) {
        #expect(JournalExport.fileName(name) == file)
    }

    @Test func writingRefusesAFileAlreadyThereBeforeWritingAnything() throws {
        let out = journal.folder.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent("voicejournal.json")
        try Data("mine".utf8).write(to: mine)
        let export = try JournalExport.archive(store, ArchiveSelection(), now: Date())
        #expect(throws: StoreError.conflict("\(mine.path) already exists; nothing was written: add --force to replace it, or export into an empty folder")) {
            try export.write(into: out, force: false) { _ in }
        }
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine")
        var wrote: [URL] = []
        let written = try export.write(into: out, force: true) { wrote.append($0) }
        #expect(wrote == [mine] && written.copied == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: mine.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try JournalArchive.read(contentsOf: mine).format == JournalArchive.formatName)
    }

    @Test func aFileThatIsNotAnExportIsRefusedInOneLine() throws {
        let notAnExport = journal.folder.path("notes.json")
        try Data("{\"hello\": 1}".utf8).write(to: notAnExport)
        #expect(throws: StoreError.invalidInput("\(notAnExport.path) is not a voicejournal export (made by: voicejournal export --format json)")) {
            try JournalArchive.read(contentsOf: notAnExport)
        }
        let missing = journal.folder.path("missing.json")
        #expect(throws: StoreError.invalidInput("cannot read \(missing.path): No such file or directory")) {
            try JournalArchive.read(contentsOf: missing)
        }
    }
}
