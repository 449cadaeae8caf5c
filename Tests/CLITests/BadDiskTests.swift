import Foundation
import Testing
import VoiceJournalTestSupport

/// Reading a journal needs no writable disk; writing to one that cannot be written is one
/// clear line and exit 1. Nothing is mounted: write permission is taken away (with root's
/// override dropped when the tests run as root), or a file-size limit plays the full disk.
@Suite(.onTestThreads) struct BadDiskTests {
    /// Every command that only reads, with what must be on stdout.
    static let readingCommands: [(arguments: [String], shows: String)] = [
        (["entry", "list"], "The lighthouse keeper waved"),
        (["entry", "show", "1"], "The lighthouse keeper waved"),
        (["search", "lighthouse"], "[lighthouse]"),
        (["export"], "# Personal"),
        (["export", "--format", "json"], "The lighthouse keeper waved"),
        (["journal", "list"], "Family"),
        (["journal", "show", "Personal"], "The lighthouse keeper waved"),
        (["person", "list"], "Grandma Rose"),
        (["question", "list"], "Where did you grow up?"),
        (["assignment", "list"], "Grandma Rose"),
        (["stats"], "Entries:"),
        (["queue", "status"], "queued 0"),
        (["queue", "list"], "The queue is empty."),
        (["entry", "list", "--json"], "\"content\""),
    ]

    /// A journal with an entry, a journal, a person, a question and an assignment, made by the CLI.
    private func makeJournal(_ cli: VoicejournalBinary) throws {
        for arguments in [
            ["entry", "add", "--text", "The lighthouse keeper waved", "--mood", "happy"],
            ["journal", "create", "Family"],
            ["person", "add", "Grandma Rose", "--relationship", "grandmother"],
            ["question", "add", "--journal", "Family", "Where did you grow up?"],
            ["assign", "1", "--person", "Grandma Rose"],
        ] {
            let result = try cli.run(arguments)
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    /// Names, sizes and modes of everything in the home, to prove a command changed nothing.
    private func snapshot(_ home: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: home.path).sorted().map { name in
            let attributes = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent(name).path)
            return "\(name) \(attributes[.size] ?? 0) \(attributes[.posixPermissions] ?? 0)"
        } + ["home \(try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] ?? 0)"]
    }

    @Test func everyReadingCommandWorksOnAHomeThatCannotBeWritten() throws {
        let folder = try TemporaryFolder("vj-readonly")
        let writer = VoicejournalBinary(home: folder.path("home"))
        try makeJournal(writer)
        try DiskLimits.makeReadOnly(writer.home)
        defer { try? DiskLimits.makeWritable(writer.home) }
        let before = try snapshot(writer.home)
        let reader = VoicejournalBinary(home: writer.home, launcher: DiskLimits.withoutPermissionOverride)

        for (arguments, shows) in Self.readingCommands {
            let result = try reader.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains(shows), "\(arguments): \(result.stdout)")
        }
        #expect(try snapshot(writer.home) == before, "reading wrote to the read-only home")

        // A write is refused in one line, exit 1, and leaves the home as it was.
        let add = try reader.run(["entry", "add", "--text", "Cannot be kept"])
        #expect(add.status == 1)
        #expect(add.stderr == "voicejournal: the journal in \(writer.home.path) is read-only: reading works, but nothing can be saved there\n")
        #expect(try snapshot(writer.home) == before)
    }

    @Test func everyReadingCommandWorksWhenTheDiskIsFullAndAWriteFailsInOneLine() throws {
        let folder = try TemporaryFolder("vj-full")
        let writer = VoicejournalBinary(home: folder.path("home"))
        try makeJournal(writer)
        // 16 KB: the database is larger (it is read and never grown), SQLite's shared-memory
        // file (32 KB) cannot be made, and no write-ahead log can take a transaction.
        let full = VoicejournalBinary(home: writer.home, launcher: DiskLimits.fileSizeLimit(16 * 1024))

        for (arguments, shows) in Self.readingCommands {
            let result = try full.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains(shows), "\(arguments): \(result.stdout)")
        }
        for arguments in [["entry", "add", "--text", "Cannot be kept"], ["journal", "create", "Garden"]] {
            let result = try full.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.contains("full"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        // With room again, the journal opens and holds exactly what it held before.
        let after = try writer.run(["entry", "list", "--json"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect((try after.json() as? [[String: Any]])?.compactMap { $0["content"] as? String } == ["The lighthouse keeper waved"])
        #expect(try writer.run(["journal", "list"]).stdout.contains("Garden") == false)
    }

    @Test func readingAHomeWithNoJournalCreatesNothingAndSaysSo() throws {
        let folder = try TemporaryFolder("vj-nohome")
        let cli = VoicejournalBinary(home: folder.path("typo/path"))
        let list = try cli.run(["entry", "list"])
        #expect(list.status == 0)
        #expect(list.stdout == "No entries.\n")
        #expect(list.stderr == "voicejournal: there is no journal in \(cli.home.path) yet\n")
        let json = try cli.run(["search", "anything", "--json"])
        let hits = try json.json() as? [Any]
        #expect(json.status == 0 && hits?.isEmpty == true, "\(json.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("typo").path), "reading created the home")
        // The first write makes it.
        #expect(try cli.run(["entry", "add", "--text", "First"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("voicejournal.sqlite").path))
    }

    @Test func aHomeThatIsEmptyOrAFileIsAUsageErrorInOneLine() throws {
        let folder = try TemporaryFolder("vj-badhome")
        let file = folder.path("notes.txt")
        try Data("not a folder".utf8).write(to: file)
        for arguments in [["entry", "list"], ["entry", "add", "--text", "x"]] {
            let result = try VoicejournalBinary(home: file).run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "voicejournal: the data home \(file.path) cannot be used: \(file.path) is a file, not a folder\n")
        }
        // The command's own --home, after the one the test binary puts first.
        let empty = try VoicejournalBinary(home: folder.path("home")).run(["entry", "list", "--home", ""])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--home needs a folder"), "\(empty.stderr)")
    }

    @Test func aJournalThatNeedsAnUpgradeSaysSoOnAReadOnlyHomeAndIsUpgradedWhenWritable() throws {
        let folder = try TemporaryFolder("vj-upgrade")
        let writer = VoicejournalBinary(home: folder.path("home"))
        try makeJournal(writer)
        // Back to the schema before the search index, as an older voicejournal left it.
        let database = writer.home.appendingPathComponent("voicejournal.sqlite")
        try runTool("python3", ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
                c.execute(f'DROP TRIGGER "{name}"')
            c.execute("DROP TABLE search_index")
            c.execute("DELETE FROM grdb_migrations WHERE identifier IN ('v2-search', 'v5-search-index')")
            c.commit()
            """, database.path])
        try DiskLimits.makeReadOnly(writer.home)
        defer { try? DiskLimits.makeWritable(writer.home) }
        let reader = VoicejournalBinary(home: writer.home, launcher: DiskLimits.withoutPermissionOverride)
        let refused = try reader.run(["entry", "list"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "voicejournal: the journal in \(writer.home.path) was made by an older voicejournal and must be "
            + "upgraded once, which needs a writable disk; run any voicejournal command with write access\n")

        try DiskLimits.makeWritable(writer.home)
        let upgraded = try writer.run(["search", "lighthouse"])
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        #expect(upgraded.stdout.contains("[lighthouse]"))
    }
}
