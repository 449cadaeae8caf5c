import Foundation
import Testing
import VoiceJournalTestSupport

/// What comes from outside is made harmless before it is used or shown: the key from the
/// environment, credentials in the base URL, and names and texts printed on the terminal.
@Suite(.onTestThreads) struct SanitisingTests {
    /// Every byte `voicejournal` left in the database (the main file and its WAL).
    func databaseBytes(_ database: URL) -> Data {
        ["", "-wal"].reduce(into: Data()) { bytes, suffix in
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: database.path + suffix))) ?? Data()
        }
    }

    /// Whether `text` holds anything a terminal obeys: ESC, BEL, or any other C0/C1 control
    /// (line breaks between lines allowed, and `allowing` ones: a listing's own separators).
    func hasControlCharacters(_ text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains {
            $0 != "\n" && !allowed.contains($0) && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
        }
    }

    // MARK: The key

    @Test func aKeyEndingInACarriageReturnIsSentWithoutIt() throws {
        // A .env file with CRLF line ends: the shell keeps the "\r".
        let key = "sk-crlf-0123456789"
        let harness = try TranscribeHarness(key: key, environment: ["OPENAI_API_KEY": key + "\r"])
        let dir = try harness.audio(1)
        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try harness.server.requests()
        #expect(requests.count == 1)
        // The server checks the header is exactly "Bearer <key>", and saw no header of our making beyond it.
        #expect(requests.allSatisfy { $0.authorizationOk == true && $0.problems.isEmpty })
        #expect(requests.allSatisfy { ($0.headerNames ?? []).allSatisfy { !$0.lowercased().hasPrefix("x-") } })
    }

    @Test(arguments: [["transcribe"], ["queue", "run"]])
    func aKeyThatWouldAddAHeaderIsRefusedUnsentAndUnprinted(command: [String]) throws {
        let key = "sk-inject-0123456789"
        let harness = try TranscribeHarness(key: key, environment: ["OPENAI_API_KEY": key + "\r\nX-Injected: 1"])
        let dir = try harness.audio(1)
        if command == ["queue", "run"] { #expect(try harness.binary.run(["transcribe", "--no-wait", dir.path]).status == 0) }
        let result = try harness.binary.run(command + (command == ["transcribe"] ? [dir.path] : []))
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.contains("OPENAI_API_KEY"))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        for secret in [key, "X-Injected"] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        }
        #expect(try harness.server.requests().isEmpty)
    }

    // MARK: Credentials in the base URL

    @Test func credentialsInTheBaseURLAreUsedButNeverShownNorStored() throws {
        let folder = try TemporaryFolder("vj-credentials")
        // The server takes the request only with the credentials (basic auth, as libcurl sends them).
        let server = try StubWhisperServer(rules: [.init(responses: [.error(status: 500), .slow(3)])],
                                           expectedCredentials: "user:s3cret")
        let audio = folder.path("in")
        try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
        try makeTone(at: audio.appendingPathComponent("memo.wav"), seconds: 0.2)
        let cli = VoicejournalBinary(home: folder.path("home"), environment: [
            "OPENAI_BASE_URL": "http://user:s3cret@127.0.0.1:\(server.port)/v1", "OPENAI_API_KEY": "",
            "VOICEJOURNAL_RETRY_BASE": "0.01", "VOICEJOURNAL_HTTP_TIMEOUT": "1",
        ])
        // A 500, then no answer in time (the message names the server), then it works.
        let result = try cli.run(["transcribe", audio.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("retrying") && result.stderr.contains("no answer from http://***@127.0.0.1"))
        let requests = try server.waitForRequests(3)
        #expect(requests.contains { $0.answer == "ok" })
        #expect(requests.allSatisfy { $0.authorizationOk == true })

        // A server that cannot be reached: the job keeps the error, without the credentials.
        try makeTone(at: audio.appendingPathComponent("second.wav"), seconds: 0.3)
        let port = try closedLoopbackPort()
        let refused = try cli.run(["transcribe", audio.path],
                                  environment: ["OPENAI_BASE_URL": "http://user:s3cret@127.0.0.1:\(port)/v1"])
        #expect(refused.status == 3, "\(refused.stderr)")
        let list = try cli.run(["queue", "list"])
        #expect(list.stdout.contains("the connection to http://***@127.0.0.1:\(port)/v1 was refused"), "\(list.stdout)")

        for output in [result.stdout, result.stderr, refused.stdout, refused.stderr, list.stdout, list.stderr] {
            #expect(!output.contains("s3cret") && !output.contains("user:"), "\(output)")
        }
        #expect(databaseBytes(folder.path("home/voicejournal.sqlite")).range(of: Data("s3cret".utf8)) == nil)
    }

    // MARK: Text on the terminal

    @Test func fileNamesCannotDriveTheTerminalNorSplitLines() throws {
        let harness = try TranscribeHarness(rules: [
            .init(match: "red", responses: [.error(status: 500, message: "busy \u{1B}[2J now")]),
            .init(match: "tab", responses: [], then: .error(status: 400, message: "rejected \u{1B}[5m\nsecond line")),
        ])
        let dir = harness.folder.path("in \u{1B}[1mbold")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let names = ["a\u{1B}]0;pwned\u{07}.wav", "b\u{1B}[31mred.wav", "c\nnew line.wav", "d\ttab.wav"]
        for (index, name) in names.enumerated() {
            try makeTone(at: dir.appendingPathComponent(name), seconds: 0.2, frequency: 300 + 40 * index)
        }
        let paths = Set(names.map { dir.appendingPathComponent($0).path })

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!hasControlCharacters(result.stdout) && !hasControlCharacters(result.stderr), "\(result.stderr)")
        // Each line is a whole line: a file's progress, a retry, or the failure and summary.
        for line in result.stderr.split(separator: "\n") {
            #expect(line.hasPrefix("[") || line.hasPrefix("retrying "), "\(line)")
        }
        let escapedDir = harness.folder.path("in \\e[1mbold").path
        for line in result.stdout.split(separator: "\n") {
            #expect(line.hasPrefix("failed: ") || line.hasPrefix("Transcribed ") || line.hasPrefix(escapedDir + "/"), "\(line)")
        }
        #expect(result.stdout.contains("\(escapedDir)/c\\nnew line.wav: recording "), "\(result.stdout)")
        #expect(result.stderr.contains("done \(harness.folder.path("in \\e[1mbold").path)/a\\e]0;pwned\\u{7}.wav"))
        #expect(result.stdout.contains("d\\ttab.wav: the server rejected the file (HTTP 400): rejected \\e[5m\\nsecond line"))

        let list = try harness.binary.run(["queue", "list"])
        // A header, then one line per job whatever its name holds: no name splits a row.
        #expect(!hasControlCharacters(list.stdout))
        let rows = list.stdout.split(separator: "\n")
        #expect(rows.count == names.count + 1, "\(list.stdout)")
        #expect(rows.first?.split(separator: " ") == ["JOB", "STATE", "ATTEMPTS", "FILE", "NOTE"])
        #expect(rows.dropFirst().allSatisfy { $0.first?.isNumber == true })
        #expect(list.stdout.contains("c\\nnew line.wav"))

        // JSON stays exact.
        let json = try #require(try harness.binary.run(["queue", "list", "--json"]).json() as? [[String: Any]])
        #expect(Set(json.compactMap { $0["path"] as? String }) == paths)
        #expect(json.contains { ($0["lastError"] as? String)?.contains("rejected \u{1B}[5m\nsecond line") == true })
    }

    @Test func typedNamesAndTextsAreShownEscapedAndExactInJSON() throws {
        let folder = try TemporaryFolder("vj-typed")
        let cli = VoicejournalBinary(home: folder.path("home"))
        let text = "a walk \u{1B}[31mby the sea\u{1B}[0m\u{07}\nsecond line"
        let title = "title \u{1B}]0;pwned\u{07}"
        let journal = "Sea\u{1B}[5m"
        let person = "Rose\u{1B}]0;x\u{07}"
        let question = "Where\u{1B}[2J?"
        var outputs: [CommandResult] = []
        func run(_ arguments: [String]) throws -> CommandResult {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append(result)
            return result
        }
        _ = try run(["journal", "create", journal, "--description", "by \u{1B}[1mthe\u{1B}[0m sea"])
        let added = try run(["entry", "add", "--journal", journal, "--title", title, "--text", text, "--json"])
        let id = try #require((try added.json() as? [String: Any])?["id"] as? Int)
        _ = try run(["person", "add", person])
        _ = try run(["question", "add", "--journal", journal, question])
        _ = try run(["assign", "1", "--person", person])

        let list = try run(["entry", "list"])
        #expect(list.stdout.contains("title \\e]0;pwned\\u{7}: a walk \\e[31mby the sea\\e[0m\\u{7} se"), "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").count == 2)
        let search = try run(["search", "walk"])
        #expect(search.stdout.contains("\\e[31m"))
        let show = try run(["entry", "show", String(id)])
        #expect(show.stdout.contains("Title: title \\e]0;pwned\\u{7}"))
        #expect(show.stdout.contains("a walk \\e[31mby the sea\\e[0m\\u{7}\nsecond line"))
        for listing in [["journal", "list"], ["journal", "show", journal], ["person", "list"], ["question", "list"],
                        ["assignment", "list"]] {
            _ = try run(listing)
        }
        for output in outputs where !output.stdout.hasPrefix("{") {
            #expect(!hasControlCharacters(output.stdout) && !hasControlCharacters(output.stderr), "\(output.stdout)")
        }

        // JSON gives back exactly what was typed.
        let json = try #require(try cli.run(["entry", "list", "--json"]).json() as? [[String: Any]])
        #expect(json.first?["content"] as? String == text)
        #expect(json.first?["title"] as? String == title)
        let hits = try #require(try cli.run(["search", "walk", "--json"]).json() as? [[String: Any]])
        #expect((hits.first?["snippet"] as? String)?.contains("\u{1B}[31m") == true)
    }
}
