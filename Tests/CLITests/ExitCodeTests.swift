import Foundation
import Testing
import VoiceJournalTestSupport

/// The exit-code contract, one representative failure per row, each through the real binary:
/// 1 some work failed, 2 usage error, 3 configuration error, 130 interrupted — always with
/// exactly one line on stderr that starts with the program's name.
@Suite(.onTestThreads) struct ExitCodeTests {
    /// A home with a journal, a question assigned to Myself (assignment 1), a tone and a text file.
    struct Setup: @unchecked Sendable {
        // @unchecked: TemporaryFolder is only read after init.
        let folder: TemporaryFolder
        let cli: VoicejournalBinary
        let tone: URL
        let text: URL

        init() throws {
            folder = try TemporaryFolder("vj-exit")
            cli = VoicejournalBinary(home: folder.path("home"), environment: ["OPENAI_API_KEY": ""])
            for arguments in [["journal", "create", "Family"], ["question", "add", "--journal", "Family", "Why?"],
                              ["assign", "1", "--person", "me"], ["question", "add", "--journal", "Family", "How?"],
                              ["assign", "2", "--person", "me"]] {
                let result = try cli.run(arguments)
                try #require(result.status == 0, "\(arguments): \(result.stderr)")
            }
            tone = try makeTone(at: folder.path("tone.wav"))
            text = folder.path("notes.wav")
            try Data("not audio at all".utf8).write(to: text)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int32
        /// What the one stderr line says (a part of it).
        let says: String
        let run: @Sendable (Setup) throws -> CommandResult
        var testDescription: String { "\(name) → \(status)" }
    }

    static let cases: [Case] = [
        Case(name: "a bad flag", status: 2, says: "Unknown option '--frobnicate'") { try $0.cli.run(["entry", "list", "--frobnicate"]) },
        Case(name: "a wrong mood", status: 2, says: "valid") { try $0.cli.run(["entry", "add", "--text", "x", "--mood", "meh"]) },
        Case(name: "an unknown journal", status: 2, says: "Nope") { try $0.cli.run(["entry", "list", "--journal", "Nope"]) },
        Case(name: "an unknown entry id", status: 2, says: "99") { try $0.cli.run(["entry", "show", "99"]) },
        Case(name: "a negative --limit", status: 2, says: "--limit must be a whole number of at least 1, not -1") {
            try $0.cli.run(["entry", "list", "--limit", "-1"])
        },
        Case(name: "a search word starting with a dash", status: 2, says: "voicejournal search -- -hello") {
            try $0.cli.run(["search", "-hello"])
        },
        Case(name: "an empty --home", status: 2, says: "--home needs a folder") { try $0.cli.run(["entry", "list", "--home", ""]) },
        Case(name: "the same question assigned twice", status: 2, says: "already assigned to Myself as assignment #1") {
            try $0.cli.run(["assign", "1", "--person", "Myself"])
        },
        Case(name: "a missing API key with a remote base URL", status: 3, says: "no API key") {
            try $0.cli.run(["transcribe", $0.tone.path], environment: ["OPENAI_BASE_URL": "https://transcribe.example.com/v1"])
        },
        Case(name: "an unknown capture device", status: 3, says: "voicejournal devices") {
            try $0.cli.run(["record", "--device", "no-such-device", "--max-duration", "1", "--no-meter"])
        },
        Case(name: "a non-audio answer --file", status: 1, says: "is not audio voicejournal can read") {
            try $0.cli.run(["answer", "1", "--file", $0.text.path])
        },
        Case(name: "duplicate answer audio", status: 1, says: "already in the journal as recording 1") { setup in
            let first = try setup.cli.run(["answer", "1", "--file", setup.tone.path])
            try #require(first.status == 0, "\(first.stderr)")
            return try setup.cli.run(["answer", "2", "--file", setup.tone.path])
        },
        Case(name: "a write to a read-only home", status: 1, says: "read-only") { setup in
            try DiskLimits.makeReadOnly(setup.cli.home)
            defer { try? DiskLimits.makeWritable(setup.cli.home) }
            return try VoicejournalBinary(home: setup.cli.home, launcher: DiskLimits.withoutPermissionOverride)
                .run(["journal", "create", "Garden"])
        },
        Case(name: "a write to a full disk", status: 1, says: "full") { setup in
            try VoicejournalBinary(home: setup.cli.home, launcher: DiskLimits.fileSizeLimit(16 * 1024))
                .run(["journal", "create", "Garden"])
        },
        Case(name: "a file the server refuses", status: 1, says: "") { setup in
            let server = try StubWhisperServer(rules: [.init(responses: [], then: .error(status: 400, message: "Invalid file format."))])
            defer { server.stop() }
            return try setup.cli.run(["transcribe", setup.tone.path],
                                     environment: ["OPENAI_BASE_URL": server.baseURL, "VOICEJOURNAL_RETRY_BASE": "0.01"])
        },
    ]

    @Test(arguments: cases)
    func eachFailureExitsWithItsDocumentedCodeAndOneLine(_ failure: Case) throws {
        let result = try failure.run(Setup())
        #expect(result.status == failure.status, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        if failure.name == "a file the server refuses" {
            // One file: stdout is for its text, so none; the summary on stderr says what failed.
            #expect(result.stdout.isEmpty && result.stderr.contains("1 failed"), "\(result.stdout)\n\(result.stderr)")
        } else {
            // Usage mistakes argument-parser finds are one line of ours too.
            #expect(lines.count == 1 && lines[0].hasPrefix("voicejournal: ") && lines[0].contains(failure.says), "\(result.stderr)")
        }
    }

    @Test func anInterruptedTranscriptionExits130AndKeepsTheFileQueued() throws {
        let setup = try Setup()
        let server = try StubWhisperServer(delay: 30)
        defer { server.stop() }
        let running = try setup.cli.start(["transcribe", setup.tone.path],
                                          environment: ["OPENAI_BASE_URL": server.baseURL])
        let database = setup.cli.home.appendingPathComponent("voicejournal.sqlite")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
              (try? queryDatabase(database, "SELECT count(*) FROM job WHERE state = 'running'"))?.first?.first as? Int != 1 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("voicejournal: interrupted"), "\(result.stderr)")
        #expect(try queryDatabase(database, "SELECT state FROM job").first?.first as? String == "queued")
    }
}
