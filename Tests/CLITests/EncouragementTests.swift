import Foundation
import Testing
import VoiceJournalTestSupport

/// A line of encouragement the moment an entry is saved: offline, chosen for the mood, not the
/// same line twice in a row, and off with --quiet or the config file.
@Suite(.onTestThreads) struct EncouragementTests {
    static let hardWords = ["hard", "gentle", "not always", "showed up", "weight", "breath"]

    @Test func entryAddEncouragesForTheMoodWithoutRepeatingTheLastLine() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        var lines: [String] = []
        for _ in 0..<6 {
            let result = try binary.run(["entry", "add", "a long day", "--mood", "stressed"])
            #expect(result.status == 0)
            // On stderr: standard output stays what a script reads.
            #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
            let output = result.stderr.split(separator: "\n").map(String.init)
            #expect(output.count == 1, "\(output)")
            lines.append(output.last ?? "")
        }
        // Six entries in a row, six different lines, all from the lines for a hard day.
        #expect(Set(lines).count == 6)
        #expect(lines.allSatisfy { line in Self.hardWords.contains { line.lowercased().contains($0) } }, "\(lines)")
        let glad = try binary.run(["entry", "add", "a lovely day", "--mood", "happy"]).stderr
        #expect(!Self.hardWords.contains { glad.contains($0) }, "\(glad)")
    }

    @Test func quietAndTheConfigFileTurnItOffAndJSONStaysOneDocument() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        #expect(try binary.run(["entry", "add", "x", "--quiet"]).stderr.isEmpty)
        #expect(try binary.run(["entry", "add", "x", "--json"]).stderr.isEmpty)
        try binary.writeConfig("[defaults]\nencourage = false\n")
        let off = try binary.run(["entry", "add", "x"])
        #expect(off.stdout == "Added entry #3 to Personal.\n" && off.stderr.isEmpty)
        try binary.writeConfig("[defaults]\nencourage = \"no\"\n")
        let bad = try binary.run(["entry", "add", "x"])
        #expect(bad.status == 3 && bad.stderr.contains("encourage"))
    }
}
