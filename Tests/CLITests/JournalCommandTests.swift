import Foundation
import Testing
import VoiceJournalTestSupport

/// Drives the built `voicejournal` binary the way a user does, against a temporary home.
@Suite(.onTestThreads) struct JournalCommandTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-cli")
        // UTC so the test and the binary agree on what "today" is.
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
    }

    /// `YYYY-MM-DDT12:00` for `offset` days from today (UTC).
    func day(_ offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(byAdding: .day, value: offset, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02dT12:00", parts.year!, parts.month!, parts.day!)
    }

    func id(of result: CommandResult) throws -> Int {
        try #require((try result.json() as? [String: Any])?["id"] as? Int)
    }

    @Test func journalPeopleQuestionsAssignmentsEntriesSearchAndStreaks() throws {
        try cli.succeed(["journal", "create", "Family", "--description", "Stories for the kids"])
        let rose = try id(of: cli.succeed(["person", "add", "Grandma Rose", "--relationship", "grandmother", "--json"]))
        let question = try id(of: cli.succeed(["question", "add", "--journal", "Family", "Where did you grow up?", "--json"]))
        let assignment = try id(of: cli.succeed(["assign", String(question), "--person", "Grandma Rose", "--json"]))
        try cli.succeed(["assign", String(question), "--person", "me"])

        // A run of three days ending today, and an older run of four.
        let days: [(Int, String, String)] = [
            (0, "Finished the bookshelf at last", "happy"),
            (-1, "Rain all day, read by the window", "neutral"),
            (-2, "Grateful for soup and a long call with Sam", "grateful"),
            (-20, "Started the bookshelf project", "excited"),
            (-19, "Sanded every plank of the bookshelf", "stressed"),
            (-18, "Stained the wood", "happy"),
            (-17, "Waiting for the stain to dry", "anxious"),
        ]
        for (offset, text, mood) in days {
            try cli.succeed(["entry", "add", "--text", text, "--mood", mood, "--date", day(offset)])
        }
        try cli.succeed(["entry", "add", "--journal", "Family", "--kind", "gratitude", "--theme", "family",
                           "--text", "Rose told the story of the ferry", "--date", day(-30)])

        let list = try #require(try cli.succeed(["entry", "list", "--json"]).json() as? [[String: Any]])
        #expect(list.count == 8)
        #expect(list.first?["content"] as? String == "Finished the bookshelf at last", "newest first")
        #expect(list.first?["journal"] as? String == "Personal", "the default journal is made on first use")
        #expect(list.last?["kind"] as? String == "gratitude")
        let family = try #require(try cli.succeed(["entry", "list", "--journal", "family", "--json"]).json() as? [[String: Any]])
        #expect(family.map { $0["theme"] as? String } == ["family"])
        let lastWeek = try #require(try cli.succeed(["entry", "list", "--since", String(day(-6).prefix(10)), "--json"]).json() as? [Any])
        #expect(lastWeek.count == 3)

        let search = try cli.succeed(["search", "bookshelf"])
        #expect(search.stdout.contains("[bookshelf]"), "snippets mark the match: \(search.stdout)")
        let hits = try #require(try cli.succeed(["search", "bookshelf", "--json"]).json() as? [[String: Any]])
        #expect(hits.count == 3)
        #expect(Set(hits.compactMap { $0["snippet"] as? String }).allSatisfy { $0.contains("[bookshelf]") })
        let moody = try #require(try cli.succeed(["search", "bookshelf", "--mood", "stressed", "--json"]).json() as? [[String: Any]])
        #expect(moody.count == 1)

        let stats = try #require(try cli.succeed(["stats", "--json"]).json() as? [String: Any])
        #expect(stats["totalEntries"] as? Int == 8)
        #expect(stats["currentStreak"] as? Int == 3)
        #expect(stats["longestStreak"] as? Int == 4)
        #expect((stats["moods"] as? [String: Int])?["happy"] == 2)
        #expect((stats["entriesByKind"] as? [String: Int])?["gratitude"] == 1)

        let assignments = try #require(try cli.succeed(["assignment", "list", "--json"]).json() as? [[String: Any]])
        #expect(assignments.count == 2)
        let roses = try #require(assignments.first { $0["id"] as? Int == assignment })
        #expect(roses["personId"] as? Int == rose)
        #expect(roses["status"] as? String == "pending")
        #expect(roses["question"] as? String == "Where did you grow up?")
        #expect(try cli.succeed(["assignment", "list", "--status", "answered"]).stdout.contains("No assignments"))
    }

    @Test func aWrongMoodListsTheValidMoodsAndExits2() throws {
        let result = try cli.run(["entry", "add", "--text", "hi", "--mood", "elated"])
        #expect(result.status == 2)
        for mood in ["happy", "grateful", "excited", "neutral", "sad", "anxious", "stressed", "angry"] {
            #expect(result.stderr.contains(mood))
        }
        #expect(result.stdout.isEmpty)
        #expect(try cli.run(["entry", "add", "--text", "hi", "--theme", "space"]).status == 2)
    }

    @Test func anUnknownJournalIsOneLineWithTheFixAndExits2() throws {
        let result = try cli.run(["entry", "add", "--text", "hi", "--journal", "Dreams"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("voicejournal: no journal named \"Dreams\""))
        #expect(result.stderr.contains("voicejournal journal create \"Dreams\""))
        #expect(try cli.run(["entry", "show", "42"]).status == 2)
        #expect(try cli.run(["assign", "7", "--person", "Nobody"]).status == 2)
    }

    @Test func deleteRemovesTheEntryFromListsAndSearch() throws {
        let entry = try id(of: cli.succeed(["entry", "add", "--text", "a walk to the lighthouse", "--json"]))
        try cli.succeed(["entry", "delete", String(entry), "--yes"])
        #expect(try cli.succeed(["search", "lighthouse"]).stdout.contains("No matches"))
        #expect(try cli.run(["entry", "delete", String(entry), "--yes"]).status == 2)
    }

    @Test(arguments: [
        [], ["journal"], ["journal", "create"], ["journal", "list"], ["journal", "show"],
        ["entry", "add"], ["entry", "list"], ["entry", "show"], ["entry", "delete"],
        ["person", "add"], ["person", "list"], ["question", "add"], ["question", "list"],
        ["assign"], ["assignment", "list"], ["search"], ["stats"],
    ])
    func everyCommandExplainsItself(command: [String]) throws {
        let result = try cli.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: voicejournal"))
        #expect(result.stdout.contains("OVERVIEW:"))
        // Command groups list their subcommands; the commands themselves take --home.
        #expect(result.stdout.contains("--home") || result.stdout.contains("SUBCOMMANDS:"))
    }

    @Test func listingsPrintOnlyJSONOnStdout() throws {
        try cli.succeed(["entry", "add", "--text", "one"])
        for listing in [["journal", "list"], ["entry", "list"], ["person", "list"], ["question", "list"],
                        ["assignment", "list"], ["search", "one"], ["stats"]] {
            let result = try cli.succeed(listing + ["--json"])
            #expect(throws: Never.self, "\(listing)") { try result.json() }
        }
    }
}

@Suite(.onTestThreads) struct ExportCommandTests {
    @Test func exportsEachJournalAsMarkdownAndJSONFiles() throws {
        let folder = try TemporaryFolder("vj-export")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["journal", "create", "Work/Notes"]).status == 0)
        #expect(try cli.run(["entry", "add", "--journal", "Work/Notes", "--title", "Standup", "--mood", "stressed",
                             "--text", "Shipped the parser", "--date", "2026-11-02T09:15"]).status == 0)
        #expect(try cli.run(["entry", "add", "--text", "Made bread", "--date", "2026-11-01"]).status == 0)

        let markdown = try cli.run(["export", "--out", folder.path("out").path])
        #expect(markdown.status == 0)
        let notes = try String(contentsOf: folder.path("out/Work-Notes.md"), encoding: .utf8)
        #expect(notes.contains("# Work/Notes"))
        #expect(notes.contains("## 2026-11-02 09:15 — Standup (text, stressed)"))
        #expect(notes.contains("Shipped the parser"))
        #expect(try String(contentsOf: folder.path("out/Personal.md"), encoding: .utf8).contains("Made bread"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path("out/Personal.md").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let json = try cli.run(["export", "--format", "json"])
        let tables = try #require((try json.json() as? [String: Any])?["tables"] as? [[String: Any]])
        let entries = try #require(tables.first { $0["name"] as? String == "entry" }?["rows"] as? [[String: Any]])
        #expect(entries.compactMap { $0["content"] as? String } == ["Shipped the parser", "Made bread"])
        #expect(try cli.run(["export", "--journal", "Nope"]).status == 2)
    }

    @Test func anExportNeverReplacesAFileThatIsThereUnlessForced() throws {
        let folder = try TemporaryFolder("vj-export")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["entry", "add", "--text", "Made bread"]).status == 0)
        let out = folder.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent("Personal.md")
        try Data("my own notes".utf8).write(to: mine)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: mine.path)

        let refused = try cli.run(["export", "--out", out.path])
        #expect(refused.status == 2)
        #expect(refused.stderr == "voicejournal: \(mine.path) already exists; nothing was written: add --force to replace it, or export into an empty folder\n")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "my own notes")
        #expect(try FileManager.default.attributesOfItem(atPath: mine.path)[.posixPermissions] as? Int == 0o644)

        let forced = try cli.run(["export", "--out", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8).contains("Made bread"))
        #expect(try FileManager.default.attributesOfItem(atPath: mine.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["Personal.md"], "a temporary file was left")

        // A second journal: every file in the way is counted in the one refusal.
        #expect(try cli.run(["journal", "create", "Garden"]).status == 0 && cli.run(["entry", "add", "Seeds", "--journal", "Garden"]).status == 0)
        try Data("mine too".utf8).write(to: out.appendingPathComponent("Garden.md"))
        let both = try cli.run(["export", "--out", out.path])
        #expect(both.status == 2 && both.stderr.contains("and 1 more of this export's 2 files already exist; nothing was written: add --force to replace them"),
                "\(both.stderr)")
    }

    @Test func anExportToAPlaceThatCannotHoldFilesIsOneLine() throws {
        let folder = try TemporaryFolder("vj-export")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["entry", "add", "--text", "Made bread"]).status == 0)
        let result = try cli.run(["export", "--out", "/proc/voicejournal-export"])
        #expect(result.status == 1)
        #expect(result.stderr == "voicejournal: cannot create the folder /proc/voicejournal-export: No such file or directory\n")
    }
}
