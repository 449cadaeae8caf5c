import Foundation
import Testing
import VoiceJournalTestSupport

/// Shell completion offers what the journal holds now: its entries' ids and its journals.
@Suite(.onTestThreads) struct LiveCompletionTests {
    /// What bash's completion of the last word of `words` offers, through the script the
    /// binary generates, as bash calls it (the command, the word, the word before it).
    func bashCompletes(_ words: [String], script: URL) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let driver = """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _voicejournal "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let folder = VoicejournalBinary.executable.deletingLastPathComponent().path
        let output = try runTool("bash", ["-c", driver], environment: ["PATH": folder + ":/usr/bin:/bin"])
        return output.split(separator: "\n").map(String.init)
    }

    @Test func entryIdsAndJournalNamesComeFromTheJournalTheCommandLineNames() throws {
        let folder = try TemporaryFolder()
        let home = folder.path("home").path
        let cli = VoicejournalBinary(home: folder.path("home"))
        for text in ["one", "two", "three"] { #expect(try cli.run(["entry", "add", text]).status == 0) }
        #expect(try cli.run(["journal", "create", "Garden"]).status == 0)
        #expect(try cli.run(["journal", "create", "Grief"]).status == 0)
        let script = folder.path("voicejournal.bash")
        try cli.run(["--generate-completion-script", "bash"]).stdout.write(to: script, atomically: true, encoding: .utf8)

        #expect(try bashCompletes(["voicejournal", "--home", home, "entry", "show", ""], script: script) == ["3", "2", "1"])
        #expect(try bashCompletes(["voicejournal", "entry", "list", "--home", home, "--journal", ""], script: script).sorted()
                == ["Garden", "Grief", "Personal"])
        #expect(try bashCompletes(["voicejournal", "--home", home, "record", "--journal", "Ga"], script: script) == ["Garden"])
        // No journal there: nothing offered, nothing made.
        let empty = folder.path("none").path
        #expect(try bashCompletes(["voicejournal", "--home", empty, "entry", "show", ""], script: script).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty))
    }
}
