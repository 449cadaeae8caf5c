import Foundation
import Testing
import TestSupport

/// The CLI's rough edges: usage errors in the style of every other error, and `queue status`
/// escaping what comes from outside but not its own separators.
@Suite struct RoughEdgesTests {
    static let usageMistakes: [(arguments: [String], says: String, help: String)] = [
        (["entry", "list", "--frobnicate"], "Unknown option '--frobnicate'", "voicejournal entry list --help"),
        (["entry", "show"], "Missing expected argument '<id>'", "voicejournal entry show --help"),
        (["entry", "show", "abc"], "The value 'abc' is invalid for '<id>'", "voicejournal entry show --help"),
        (["entry", "list", "--mood", "elated"], "following: happy, grateful, excited", "voicejournal entry list --help"),
        (["entry", "list", "--limit"], "Missing value for '--limit <limit>'", "voicejournal entry list --help"),
        (["transcribe", "/nonexistent", "--jobs", "0"], "--jobs must be between 1 and 64, not 0", "voicejournal transcribe --help"),
        (["queue", "list", "--limit", "0"], "--limit must be a whole number of at least 1, not 0", "voicejournal queue list --help"),
        (["frobnicate"], "Unexpected argument 'frobnicate'", "voicejournal --help"),
        (["search", "a\tb", "--bogus"], "Unknown option '--bogus'", "voicejournal search --help"),
    ]

    @Test(arguments: usageMistakes)
    func aUsageMistakeIsOneLineStartingWithTheProgramsNameAndExits2(_ mistake: (arguments: [String], says: String, help: String)) throws {
        let folder = try TemporaryFolder("vj-usage")
        let result = try VoicejournalBinary(home: folder.path("home")).run(mistake.arguments)
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && lines.first?.hasPrefix("voicejournal: ") == true, "\(result.stderr)")
        #expect(result.stderr.contains(mistake.says) && result.stderr.contains("(see '\(mistake.help)')"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpAndVersionStillPrintOnStdoutAndExit0() throws {
        let folder = try TemporaryFolder("vj-usage")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let help = try binary.run(["entry", "list", "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty && help.stdout.contains("USAGE: voicejournal entry list"), "\(help.stderr)")
        let version = try binary.run(["--version"])
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func queueStatusSeparatesItsColumnsWithTabsAndEscapesOnlyWhatCameFromOutside() throws {
        let harness = try TranscribeHarness(delay: 20)
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = try makeTone(at: dir.appendingPathComponent("call\twith\nmum.wav"))
        let run = try harness.binary.start(["transcribe", file.path])
        defer {
            run.signal(SIGINT)
            _ = run.wait()
        }
        var line: Substring?
        let deadline = Date().addingTimeInterval(20)
        while line == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            line = try harness.binary.run(["queue", "status"]).stdout.split(separator: "\n").first { $0.hasPrefix("  running ") }
        }
        let running = try #require(line)
        let escapedPath = file.path.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        #expect(running.split(separator: "\t").map(String.init) == ["  running 1", escapedPath, "on \(harness.server.baseURL)"],
                "\(running)")
    }
}

/// `entry edit` when the editor does not leave UTF-8 text in the file it was given.
@Suite struct EditorMishapTests {
    @Test(arguments: [
        ("rm", "voicejournal: the editor (rm) removed the file it was given; entry #1 is unchanged"),
        ("printf '\\377\\376bad' >", "voicejournal: the editor saved text that is not UTF-8; save it as UTF-8 and try again (entry #1 is unchanged)"),
    ])
    func anEditorThatLeavesNoTextIsOneClearLine(editor: String, says: String) throws {
        let folder = try TemporaryFolder("vj-editor")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["entry", "add", "--text", "hello there"]).status == 0)
        let result = try cli.run(["entry", "edit", "1"], environment: ["VISUAL": editor])
        #expect(result.status == 1)
        #expect(result.stderr == says + "\n")
        #expect(try cli.run(["entry", "show", "1"]).stdout.contains("hello there"))
    }
}
