import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal search` with FTS5's query language, filters and dates, on a journal built
/// over several months with the command's clock set (`VOICEJOURNAL_NOW`).
@Suite(.onTestThreads) struct SearchSyntaxTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary
    /// Entry ids by name.
    var entries: [String: Int] = [:]

    /// "Now" for every command: Monday 23 November 2026, noon (UTC).
    static let now = "2026-11-23T12:00:00Z"

    init() throws {
        folder = try TemporaryFolder("vj-search-syntax")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC", "VOICEJOURNAL_NOW": Self.now])
        try cli.succeed(["journal", "create", "Work"])
        let made: [(String, String, [String])] = [
            ("walk", "Harbour walk with the dog at dawn", ["--date", "2026-08-10T08:00"]),
            ("software", "We deployed the new harbour software", ["--date", "2026-10-01T10:00", "--journal", "Work"]),
            ("ferry", "The ferry left the harbour late", ["--date", "2026-11-01T18:00", "--kind", "gratitude"]),
            ("garden", "Garden rain and the smell of earth", ["--date", "2026-11-17T07:00"]),
            ("lights", "Rain in the garden again, then harbour lights", ["--date", "2026-11-22T21:00"]),
            ("deploy", "Deploy day: everything shipped", ["--date", "2026-11-23T09:00", "--journal", "Work"]),
        ]
        for (name, text, options) in made {
            let added = try cli.succeed(["entry", "add", "--text", text, "--json"] + options)
            entries[name] = try #require((try added.json() as? [String: Any])?["id"] as? Int)
        }
    }

    /// The names of the entries a search finds, best first.
    func found(_ arguments: [String]) throws -> [String] {
        let hits = try #require(try cli.succeed(["search", "--json"] + arguments).json() as? [[String: Any]])
        return hits.map { hit in entries.first { $0.value == hit["entryId"] as? Int }?.key ?? "?" }
    }

    @Test(arguments: [
        (["harbour", "rain"], ["lights"]),
        (["harbour or deploy"], []),
        (["harbour OR deploy"], ["deploy", "ferry", "lights", "software", "walk"]),
        (["harb*"], ["ferry", "lights", "software", "walk"]),
        (["\"harbour lights\""], ["lights"]),
        (["\"lights harbour\""], []),
        (["harbour NOT ferry"], ["lights", "software", "walk"]),
        (["harbour", "AND", "(dog OR ferry)"], ["ferry", "walk"]),
        (["NEAR(garden rain, 1)"], ["garden"]),
        (["NEAR(garden rain, 5)"], ["garden", "lights"]),
        (["deploy*", "NOT", "\"new harbour\""], ["deploy"]),
    ])
    func eachQueryFormFindsWhatFTS5Finds(_ query: [String], _ expected: [String]) throws {
        #expect(try found(query).sorted() == expected, "\(query)")
    }

    @Test(arguments: [
        (["--since", "2026-11-01"], ["ferry", "lights"]),
        (["--since", "7d"], ["lights"]),
        (["--since", "3m"], ["ferry", "lights", "software"]),
        (["--since", "yesterday"], ["lights"]),
        (["--until", "yesterday", "--since", "2026-10-01"], ["ferry", "lights", "software"]),
        (["--until", "2026-11-01"], ["ferry", "software", "walk"]),
        (["--kind", "gratitude"], ["ferry"]),
        (["--journal", "Work"], ["software"]),
    ])
    func eachFilterAndDateFormNarrowsTheHits(_ filter: [String], _ expected: [String]) throws {
        #expect(try found(["harbour"] + filter).sorted() == expected, "\(filter)")
    }

    @Test func todayMeansTheCommandsDayAndTheBestMatchComesFirstWithItsWordsMarked() throws {
        #expect(try found(["deploy", "--since", "today"]) == ["deploy"])
        try cli.succeed(["entry", "add", "--text", "harbour harbour harbour", "--date", "2026-11-23T10:00"])
        let table = try cli.succeed(["search", "harbour"]).stdout
        let lines = table.split(separator: "\n")
        #expect(lines.count == 6 && lines[1].hasSuffix("[harbour] [harbour] [harbour]"), "\(table)")
        #expect(table.contains("Rain in the garden again, then [harbour lights]") || table.contains("[harbour] lights"), "\(table)")
        let phrase = try cli.succeed(["search", "\"harbour lights\""]).stdout
        #expect(phrase.contains("[harbour lights]") || phrase.contains("[harbour] [lights]"), "\(phrase)")
    }

    @Test(arguments: ["harbour AND", "\"harbour", "(harbour", "harbour)", "NOT harbour", "NEAR(harbour)",
                      "harbour OR OR rain", "NEAR(garden rain, x)"])
    func aMalformedQueryExits2WithOneReadableLine(_ query: String) throws {
        let result = try cli.run(["search", query])
        #expect(result.status == 2, "\(query): \(result.stdout) \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.hasPrefix("voicejournal: cannot search for "), "\(result.stderr)")
        for sqlWords in ["fts5", "SQL", "syntax error", "MATCH"] {
            #expect(!result.stderr.contains(sqlWords), "\(result.stderr)")
        }
    }

    @Test func matchesAreBoldOnATerminal() throws {
        // `script` gives the command a terminal for stdout; NO_COLOR must be unset for bold.
        let command = [VoicejournalBinary.executable.path, "--home", cli.home.path, "search", "ferry"]
            .map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm"
        environment["TZ"] = "UTC"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("The \u{1B}[1mferry\u{1B}[0m left the harbour late"), "\(text.debugDescription)")
        #expect(!text.contains("[ferry]"))
    }
}
