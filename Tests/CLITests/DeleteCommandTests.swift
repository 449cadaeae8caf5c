import Foundation
import Testing
import VoiceJournalTestSupport

/// `entry|question|journal|person delete`: the confirmation contract and what goes.
@Suite(.onTestThreads) struct DeleteCommandTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-delete")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
    }

    func count(_ table: String) throws -> Int {
        try #require(try CaptureDatabase.rows(home: cli.home, "SELECT count(*) AS n FROM \(table)").first?["n"] as? Int)
    }

    /// Runs the binary on a pseudo-terminal (through `script`), typing `typed` at it.
    func runOnTerminal(_ arguments: [String], typing typed: String) throws -> (status: Int32, output: String) {
        let quoted = ([VoicejournalBinary.executable.path, "--home", cli.home.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", quoted, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "UTC"
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(typed.utf8))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationStatus, text)
    }

    @Test func withoutATerminalOrYesADeleteRefusesWithExit2AndSaysWhatWouldGo() throws {
        let entry = try cli.succeed(["entry", "add", "--text", "a walk to the lighthouse", "--json"]).jsonID()
        let refused = try cli.run(["entry", "delete", String(entry)])
        #expect(refused.status == 2)
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
        #expect(refused.stderr.hasPrefix("voicejournal: deleting entry #\(entry) removes 1 entry"))
        #expect(refused.stderr.contains("--yes"))
        #expect(refused.stdout.isEmpty)
        #expect(try count("entry") == 1, "nothing was deleted")

        let dryRun = try cli.succeed(["entry", "delete", String(entry), "--dry-run"])
        #expect(dryRun.stdout.contains("Deleting entry #\(entry) removes:\n  1 entry"))
        #expect(try count("entry") == 1)
        let json = try #require(try cli.succeed(["entry", "delete", String(entry), "--dry-run", "--json"]).json() as? [String: Any])
        #expect(json["entries"] as? Int == 1)

        #expect(try cli.succeed(["entry", "delete", String(entry), "--yes"]).stdout == "Deleted entry #\(entry).\n")
        #expect(try count("entry") == 0)
        #expect(try count("search_index") == 0)
        #expect(try cli.run(["entry", "delete", String(entry), "--yes"]).status == 2, "it is gone")
    }

    @Test func onATerminalADeleteAsksAndOnlyYesDeletes() throws {
        try cli.succeed(["journal", "create", "Travel"])
        try cli.succeed(["entry", "add", "--journal", "Travel", "--text", "Lisbon trams"])
        try cli.succeed(["question", "add", "--journal", "Travel", "Where next?"])

        let declined = try runOnTerminal(["journal", "delete", "Travel"], typing: "n\n")
        #expect(declined.status == 0, "\(declined.output)")
        #expect(declined.output.contains("Deleting journal \"Travel\" removes:"))
        #expect(declined.output.contains("1 journal: \"Travel\""))
        #expect(declined.output.contains("1 question") && declined.output.contains("1 entry"))
        #expect(declined.output.contains("Delete all of this? [y/N]"))
        #expect(declined.output.contains("Nothing was deleted."))
        #expect(try count("journal") == 1 && count("entry") == 1)

        let accepted = try runOnTerminal(["journal", "delete", "Travel"], typing: "y\n")
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.contains("Deleted journal \"Travel\"."))
        #expect(try count("journal") == 0 && count("entry") == 0 && count("question") == 0)
    }

    @Test func deletingAPersonRemovesTheirAnswersAudioAndQueuedJobsButNotAnotherPersons() throws {
        try cli.succeed(["journal", "create", "Family"])
        let question = try cli.succeed(["question", "add", "--journal", "Family", "Where did you grow up?", "--json"]).jsonID()
        try cli.succeed(["person", "add", "Grandma Rose"])
        try cli.succeed(["person", "add", "Uncle Sam"])
        var copies: [String: String] = [:]
        for (index, name) in ["Grandma Rose", "Uncle Sam"].enumerated() {
            let assignment = try cli.succeed(["assign", String(question), "--person", name, "--json"]).jsonID()
            let source = try makeTone(at: folder.path("answer\(index).wav"), seconds: 0.3, frequency: 300 + 100 * index)
            let answered = try #require(try cli.succeed(["answer", String(assignment), "--file", source.path, "--json"]).json()
                                        as? [String: Any])
            copies[name] = try #require(answered["path"] as? String)
        }
        #expect(try count("job") == 2)

        let deleted = try cli.succeed(["person", "delete", "Grandma Rose", "--yes", "--json"])
        let report = try #require(try deleted.json() as? [String: Any])
        let plan = try #require(report["deleted"] as? [String: Any])
        #expect(plan["assignments"] as? Int == 1 && plan["recordings"] as? Int == 1 && plan["unfinishedJobs"] as? Int == 1)
        #expect(report["removedFiles"] as? [String] == [copies["Grandma Rose"]!])
        #expect(!FileManager.default.fileExists(atPath: copies["Grandma Rose"]!))
        #expect(FileManager.default.fileExists(atPath: copies["Uncle Sam"]!))
        #expect(FileManager.default.fileExists(atPath: folder.path("answer0.wav").path), "the file answered from stays")
        #expect(try count("person") == 2 && count("assignment") == 1 && count("recording") == 1 && count("job") == 1)
        #expect(try count("question") == 1, "the question is not only Rose's")

        let myself = try cli.run(["person", "delete", "me", "--yes"])
        #expect(myself.status == 2)
        #expect(myself.stderr == "voicejournal: \"Myself\" is you and cannot be deleted\n")
        try cli.succeed(["question", "delete", String(question), "--yes"])
        #expect(try count("question") == 0 && count("assignment") == 0 && count("recording") == 0)
        #expect(!FileManager.default.fileExists(atPath: copies["Uncle Sam"]!))
    }
}
