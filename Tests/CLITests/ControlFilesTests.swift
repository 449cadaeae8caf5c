import Foundation
import Testing
import VoiceJournalTestSupport

/// The data home's control files and the config file are data: a FIFO, a device or a link in
/// their place is refused at once with one line, never waited on; a planted serve record
/// cannot choose the link a command prints.
@Suite(.onTestThreads) struct ControlFilesTests {
    /// A journal with two questions, the first assigned to Rose (assignment 1), and the binary on its home.
    static func journal() throws -> (TemporaryFolder, VoicejournalBinary) {
        let folder = try TemporaryFolder("vj-control")
        let binary = VoicejournalBinary(home: folder.path("home"))
        for arguments in [["journal", "create", "Family"], ["person", "add", "Rose"],
                          ["question", "add", "--journal", "Family", "Where did you grow up?"],
                          ["question", "add", "--journal", "Family", "Who taught you to swim?"], ["assign", "1", "--person", "Rose"]] {
            let result = try binary.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        return (folder, binary)
    }

    /// Runs the command, killing it if it has not ended after `seconds`; nil when it had to be killed.
    static func run(_ binary: VoicejournalBinary, _ arguments: [String], within seconds: Double = 10) throws -> CommandResult? {
        let running = try binary.start(arguments)
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if running.process.isRunning {
            running.signal(SIGKILL)
            _ = running.wait()
            return nil
        }
        return running.wait()
    }

    /// A process holding an exclusive lock on `file`, as a running serve does, until stopped.
    static func holdLock(on file: URL) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-x", file.path, "sleep", "60"]
        try holder.run()
        // The lock is taken when flock starts its child.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, (try? runTool("flock", ["-n", "-s", file.path, "true"])) != nil {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return holder
    }

    @Test func aFIFONamedServeLockIsPassedOverAtOnceWithALine() throws {
        let (folder, binary) = try Self.journal()
        _ = folder
        let lock = binary.home.appendingPathComponent("serve.lock")
        #expect(mkfifo(lock.path, 0o600) == 0)
        for arguments in [["assignment", "link", "1"], ["assignment", "show", "1"], ["config", "show"]] {
            let started = Date()
            let result = try #require(try Self.run(binary, arguments), "\(arguments) waited on the FIFO")
            #expect(Date().timeIntervalSince(started) < 5)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("serve.lock is ignored: it is a FIFO, not a regular file"), "\(result.stderr)")
        }
        let link = try #require(try Self.run(binary, ["assignment", "link", "1"]))
        #expect(link.stdout.hasPrefix("http://127.0.0.1:8787/a/"), "\(link.stdout)")
    }

    @Test(arguments: ["javascript:alert(1)//", "https://" + String(repeating: "a", count: 5_000) + ".example.net", "not a url"])
    func aPlantedServeRecordWithLinksThatAreNoHTTPURLIsPassedOver(_ links: String) throws {
        let (folder, binary) = try Self.journal()
        _ = folder
        let lock = binary.home.appendingPathComponent("serve.lock")
        FileManager.default.createFile(atPath: lock.path, contents: nil)
        let holder = try Self.holdLock(on: lock)
        defer { holder.terminate(); holder.waitUntilExit() }
        let record = try JSONSerialization.data(withJSONObject: ["pid": 1, "address": "http://127.0.0.1:1", "links": links])
        try record.write(to: binary.home.appendingPathComponent("serve.json"))
        for arguments in [["assignment", "link", "1"], ["assignment", "show", "1"], ["assign", "2", "--person", "Rose"]] {
            let result = try #require(try Self.run(binary, arguments))
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("http://127.0.0.1:8787/a/") && !result.stdout.contains("javascript")
                    && !result.stdout.contains("aaaa"), "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("names links that are not an http(s) URL"), "\(result.stderr)")
        }
    }

    @Test func aServeRecordThatIsAFIFOOrALinkIsNotRead() throws {
        let (folder, binary) = try Self.journal()
        let lock = binary.home.appendingPathComponent("serve.lock")
        FileManager.default.createFile(atPath: lock.path, contents: nil)
        let holder = try Self.holdLock(on: lock)
        defer { holder.terminate(); holder.waitUntilExit() }
        let record = binary.home.appendingPathComponent("serve.json")
        #expect(mkfifo(record.path, 0o600) == 0)
        let waited = try #require(try Self.run(binary, ["assignment", "link", "1"]), "it waited on the FIFO")
        #expect(waited.status == 0 && waited.stdout.hasPrefix("http://127.0.0.1:8787/a/"), "\(waited.stdout) \(waited.stderr)")
        #expect(waited.stderr.contains("serve.json is ignored: it is a FIFO"), "\(waited.stderr)")
        try FileManager.default.removeItem(at: record)
        let elsewhere = folder.path("elsewhere.json")
        try Data(#"{"pid": 1, "address": "http://127.0.0.1:1", "links": "https://evil.example.net"}"#.utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: record, withDestinationURL: elsewhere)
        let linked = try #require(try Self.run(binary, ["assignment", "link", "1"]))
        #expect(linked.stdout.hasPrefix("http://127.0.0.1:8787/a/"), "\(linked.stdout)")
        #expect(linked.stderr.contains("serve.json is ignored: it is a symbolic link"), "\(linked.stderr)")
    }

    @Test func aConfigFileThatIsAFIFOADeviceOrHugeIsRefusedWithWhatItIs() throws {
        let (folder, binary) = try Self.journal()
        let fifo = folder.path("config.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let huge = folder.path("huge.toml")
        try Data(repeating: UInt8(ascii: "#"), count: 3 << 20).write(to: huge)
        let cases = [(fifo.path, "is a FIFO, not a regular file"), ("/dev/zero", "is a device, not a regular file"),
                     (huge.path, "is larger than 1024 KB")]
        for (path, said) in cases {
            for arguments in [["config", "show"], ["assignment", "link", "1"]] {
                let result = try #require(try Self.run(binary, ["--config", path] + arguments), "\(arguments) on \(path) hung")
                #expect(result.status == 3, "\(arguments) on \(path): \(result.status) \(result.stderr)")
                #expect(result.stderr == "voicejournal: \(path): \(said)\n", "\(result.stderr)")
            }
        }
    }
}
