import Foundation
import Testing
import VoiceJournalTestSupport

/// A line of encouragement the moment an entry is saved, for a person at a terminal: offline,
/// chosen for the mood, not the same line twice in a row, off with --quiet or the config file,
/// and never in output a script reads.
@Suite(.onTestThreads) struct EncouragementTests {
    static let hardWords = ["hard", "gentle", "not always", "showed up", "weight", "breath"]

    @Test func entryAddEncouragesForTheMoodWithoutRepeatingTheLastLine() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"), launcher: VoicejournalBinary.onATerminal)
        var lines: [String] = []
        for _ in 0..<6 {
            let result = try binary.run(["entry", "add", "a long day", "--mood", "stressed"])
            #expect(result.status == 0)
            let output = result.stdout.split(whereSeparator: \.isNewline).map(String.init)
            #expect(output.count == 2 && output.first?.hasPrefix("Added entry") == true, "\(output)")
            lines.append(output.last ?? "")
        }
        // Six entries in a row, six different lines, all from the lines for a hard day.
        #expect(Set(lines).count == 6)
        #expect(lines.allSatisfy { line in Self.hardWords.contains { line.lowercased().contains($0) } }, "\(lines)")
        let glad = try binary.run(["entry", "add", "a lovely day", "--mood", "happy"]).stdout
        #expect(!Self.hardWords.contains { glad.contains($0) }, "\(glad)")
    }

    @Test func quietTheConfigFileAndAPipeLeaveItOut() throws {
        let folder = try TemporaryFolder()
        let onTerminal = VoicejournalBinary(home: folder.path("home"), launcher: VoicejournalBinary.onATerminal)
        func lines(_ result: CommandResult) -> [String] { result.stdout.split(whereSeparator: \.isNewline).map(String.init) }
        #expect(lines(try onTerminal.run(["entry", "add", "x", "--quiet"])) == ["Added entry #1 to Personal."])
        // Piped: standard output is what a script reads, and stays only that.
        let piped = try VoicejournalBinary(home: folder.path("home")).run(["entry", "add", "x"])
        #expect(piped.stdout == "Added entry #2 to Personal.\n" && piped.stderr.isEmpty)
        try onTerminal.writeConfig("[defaults]\nencourage = false\n")
        #expect(lines(try onTerminal.run(["entry", "add", "x"])) == ["Added entry #3 to Personal."])
        try onTerminal.writeConfig("[defaults]\nencourage = \"no\"\n")
        let bad = try VoicejournalBinary(home: folder.path("home")).run(["entry", "add", "x"])
        #expect(bad.status == 3 && bad.stderr.contains("encourage"))
    }
}
