import Foundation
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport
import VoiceJournalPages
import VoiceJournalSystem

/// `entry edit`'s round trip through the user's editor, with the store's own correction.
@Suite struct EntryEditorTests {
    let journal: TemporaryJournal
    init() throws { journal = try TemporaryJournal() }

    @Test(arguments: [
        (["VISUAL": "nano", "EDITOR": "vim"], "nano"), (["VISUAL": "", "EDITOR": "vim"], "vim"), ([:], "vi"),
    ] as [([String: String], String)])
    func theEditorIsVisualElseEditorElseVi(environment: [String: String], command: String) {
        #expect(EntryEditor(environment: environment).command == command)
    }

    @Test func theEditorsTextIsTheCorrectionAndItsFileIsGone() async throws {
        let entry = try journal.store.addEntry(journal: nil, title: nil, content: "Met Yorg at the market", mood: nil, theme: nil)
        let editor = EntryEditor(environment: ["VISUAL": "sed -i s/Yorg/Jörg/"])
        let correction = try await journal.store.correctEntry(id: entry.id, text: nil, editor: editor, now: Date())
        #expect(correction.part == .text && correction.changed)
        #expect(try journal.store.entry(id: entry.id).content == "Met Jörg at the market")
        let tmp = journal.store.home.url.appendingPathComponent("tmp").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test(arguments: [
        ("false", EditorError.Kind.failed, "the editor (false) ended with status 1; entry #1 is unchanged"),
        ("rm", .lostFile, "the editor (rm) removed the file it was given; entry #1 is unchanged"),
        ("printf '\\377' >", .notUTF8, "the editor saved text that is not UTF-8; save it as UTF-8 and try again (entry #1 is unchanged)"),
    ])
    func anEditorThatLeavesNothingToTakeChangesNothing(command: String, kind: EditorError.Kind, message: String) async throws {
        let entry = try journal.store.addEntry(journal: nil, title: nil, content: "as it was", mood: nil, theme: nil)
        let editor = EntryEditor(environment: ["VISUAL": command])
        let error = await #expect(throws: EditorError.self) {
            try await journal.store.correctEntry(id: entry.id, text: nil, editor: editor, now: Date())
        }
        #expect(error?.kind == kind && error?.description == message)
        #expect(try journal.store.entry(id: entry.id).content == "as it was")
    }

    @Test func aGivenTextNeedsNoEditor() async throws {
        let entry = try journal.store.addEntry(journal: nil, title: nil, content: "as it was", mood: nil, theme: nil)
        let editor = EntryEditor(environment: ["VISUAL": "false"])
        #expect(try await journal.store.correctEntry(id: entry.id, text: "as it was", editor: editor, now: Date()).changed == false)
        await #expect(throws: StoreError.self) { try await journal.store.correctEntry(id: entry.id, text: "  ", editor: editor, now: Date()) }
    }
}
