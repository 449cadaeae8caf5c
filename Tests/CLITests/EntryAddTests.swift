import Foundation
import Testing
import VoiceJournalTestSupport

/// `entry add` takes its text the ways people give it: words, --text, a pipe, their editor.
@Suite(.onTestThreads) struct EntryAddTests {
    func texts(_ harness: TranscribeHarness) throws -> [String] {
        try queryDatabase(harness.database, "SELECT content FROM entry ORDER BY id").compactMap { $0[0] as? String }
    }

    @Test func theTextComesAsWordsAsTextOrFromAPipe() throws {
        let harness = try TranscribeHarness()
        #expect(try harness.binary.run(["entry", "add", "Walked to the harbour."]).status == 0)
        #expect(try harness.binary.run(["entry", "add", "Bread", "and", "tea", "--mood", "happy"]).status == 0)
        let pipe = harness.folder.path("piped.txt")
        try Data("  From a pipe,\ntwo lines.\n\n".utf8).write(to: pipe)
        let piped = try harness.binary.run(["entry", "add"], stdin: try FileHandle(forReadingFrom: pipe))
        #expect(piped.status == 0, "\(piped.stderr)")
        let dash = try harness.binary.run(["entry", "add", "--text", "-", "--kind", "gratitude"], stdin: try FileHandle(forReadingFrom: pipe))
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(try texts(harness) == ["Walked to the harbour.", "Bread and tea", "From a pipe,\ntwo lines.", "From a pipe,\ntwo lines."])
        #expect(try queryDatabase(harness.database, "SELECT mood FROM entry WHERE id = 2").first?.first as? String == "happy")
        // The newest is `last`; a word that is not an id is a usage mistake.
        let last = try harness.binary.run(["entry", "show", "last"])
        #expect(last.status == 0 && last.stdout.hasPrefix("#4 ") && last.stdout.contains("gratitude"), "\(last.stdout)")
        let word = try harness.binary.run(["entry", "show", "first"])
        #expect(word.status == 2 && word.stderr.contains("give an entry's id (see 'entry list') or last"), "\(word.stderr)")
        let list = try harness.binary.run(["entry", "list", "--kind", "text"]).stdout
        #expect(list.split(separator: "\n").first?.split(separator: " ") == ["ID", "DATE", "JOURNAL", "KIND", "MOOD", "THEME", "TEXT"], "\(list)")
    }

    @Test func emptyOrDoubleTextAddsNothing() throws {
        let harness = try TranscribeHarness()
        let empty = harness.folder.path("empty.txt")
        try Data(" \n\n".utf8).write(to: empty)
        let blank = try harness.binary.run(["entry", "add"], stdin: try FileHandle(forReadingFrom: empty))
        #expect(blank.status == 2 && blank.stderr.contains("standard input held no text; no entry was added"), "\(blank.stderr)")
        let twice = try harness.binary.run(["entry", "add", "words", "--text", "more"])
        #expect(twice.status == 2 && twice.stderr.contains("give the text once"), "\(twice.stderr)")
        let binary = harness.folder.path("binary.txt")
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: binary)
        let notText = try harness.binary.run(["entry", "add", "--text", "-"], stdin: try FileHandle(forReadingFrom: binary))
        #expect(notText.status == 2 && notText.stderr.contains("not UTF-8"), "\(notText.stderr)")
        #expect(try texts(harness).isEmpty)
    }

    @Test func onATerminalWithNoTextTheEditorWritesIt() throws {
        var harness = try TranscribeHarness()
        harness.binary.launcher = VoicejournalBinary.onATerminal
        // $VISUAL is a command line run with the file's path: this one writes the entry.
        let written = try harness.binary.run(["entry", "add", "--title", "Evening"],
                                             environment: ["VISUAL": "printf 'Written in the editor.\\n' >"])
        #expect(written.status == 0, "\(written.stdout)")
        #expect(try texts(harness) == ["Written in the editor."])
        // An editor that writes nothing (the user quit) adds nothing and says so.
        let quit = try harness.binary.run(["entry", "add"], environment: ["VISUAL": "true"])
        #expect(quit.status == 1 && quit.stdout.contains("nothing was written in the editor (true); no entry was added"), "\(quit.stdout)")
        #expect(try texts(harness).count == 1)
    }

    @Test func anUnknownJournalIsRefusedBeforeTheEditorOpens() throws {
        var harness = try TranscribeHarness()
        harness.binary.launcher = VoicejournalBinary.onATerminal
        let marker = harness.folder.path("editor-ran")
        let result = try harness.binary.run(["entry", "add", "--journal", "Nope"], environment: ["VISUAL": "touch \(marker.path);"])
        #expect(result.status == 2 && result.stdout.contains("Nope"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "no words written that could not be kept")
    }
}
