import Foundation
import Testing
import VoiceJournalTestSupport

/// `export` (Markdown with audio links, JSON, subtitles) and `import`, driven like a user.
@Suite(.onTestThreads) struct ExportImportTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-export")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
    }

    /// Grandma Rose's journal with an answered question (audio copied into the home, a
    /// transcript with segments), a pending one, and entries over three days. Returns the
    /// answer's recording.
    func keepAJournal() throws -> (id: Int, path: String) {
        try cli.succeed(["journal", "create", "Family", "--description", "Stories for the kids"])
        try cli.succeed(["person", "add", "Grandma Rose", "--relationship", "grandmother"])
        let question = try cli.succeed(["question", "add", "--journal", "Family", "Where did you grow up?", "--json"]).jsonID()
        let assignment = try cli.succeed(["assign", String(question), "--person", "Grandma Rose", "--json"]).jsonID()
        try cli.succeed(["assign", String(question), "--person", "me"])
        let source = try makeTone(at: folder.path("rose's answer.wav"), seconds: 0.4, frequency: 330)
        let answered = try #require(try cli.succeed(["answer", String(assignment), "--file", source.path, "--json"]).json()
                                    as? [String: Any])
        let recording = try #require(answered["recordingId"] as? Int)
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO transcript (recordingId, text, language, model, segments, createdAt)
            VALUES (?, 'By the harbour, in a blue house.', 'english', 'whisper-1',
                    '[{"start":0,"end":1.5,"text":"By the harbour,"},{"start":1.5,"end":3.25,"text":" in a blue house."}]',
                    '2026-11-02 10:00:00.000')
            """, [String(recording)])
        _ = try CaptureDatabase.rows(home: cli.home, "UPDATE job SET state = 'done' WHERE recordingId = ?", [String(recording)])
        try cli.succeed(["entry", "add", "--journal", "Family", "--text", "Baked bread with Rose", "--mood", "happy",
                           "--theme", "family", "--date", "2026-11-01T09:00"])
        try cli.succeed(["entry", "add", "--text", "Ran in the rain", "--mood", "excited", "--date", "2026-11-02T07:30"])
        try cli.succeed(["entry", "add", "--text", "Quiet day", "--date", "2026-11-03T20:00"])
        return (recording, try #require(answered["path"] as? String))
    }

    /// Whether every table of the two journals holds the same rows (the search index's too),
    /// compared by Python's sqlite3: the tables that differ, with their row counts.
    func differingTables(_ first: URL, _ second: URL) throws -> [String] {
        let script = """
            import json, sqlite3, sys
            def dump(path):
                db = sqlite3.connect(path)
                names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                         "AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' AND name NOT LIKE 'search_index_%' AND name NOT LIKE 'reflection_index_%'")]
                return {n: [list(r) for r in db.execute(f'SELECT rowid, * FROM "{n}" ORDER BY rowid')] for n in names}
            a, b = dump(sys.argv[1]), dump(sys.argv[2])
            print(json.dumps(sorted(set(a) | set(b))))
            print(json.dumps([f"{n}: {len(a.get(n, []))} vs {len(b.get(n, []))}" for n in sorted(set(a) | set(b)) if a.get(n) != b.get(n)]))
            """
        let output = try runTool("python3", ["-c", script, first.appendingPathComponent("voicejournal.sqlite").path,
                                             second.appendingPathComponent("voicejournal.sqlite").path])
        let lines = output.split(separator: "\n").map(String.init)
        let tables = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String])
        #expect(Set(["person", "journal", "question", "assignment", "entry", "recording", "transcript", "job", "search_index"])
            .isSubset(of: Set(tables)))
        return try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String])
    }

    @Test func exportAsJSONThenImportIntoAFreshHomeReproducesEveryTable() throws {
        _ = try keepAJournal()
        let out = folder.path("backup")
        #expect(try cli.succeed(["export", "--format", "json", "--out", out.path]).stdout
                == out.appendingPathComponent("voicejournal.json").path + "\n")
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let imported = try fresh.succeed(["import", out.appendingPathComponent("voicejournal.json").path])
        #expect(imported.stdout.contains("journal 2, person 2, question 1, assignment 2, entry 3, recording 1, transcript 1"))
        #expect(try differingTables(cli.home, fresh.home) == [])
        #expect((try fresh.succeed(["search", "harbour", "--json"]).json() as? [Any])?.count == 1)
        #expect(try fresh.succeed(["search", "bread"]).stdout.contains("[bread]"))

        let again = try fresh.run(["import", out.appendingPathComponent("voicejournal.json").path])
        #expect(again.status == 2)
        #expect(again.stderr.hasPrefix("voicejournal: the data home \(fresh.home.path) already holds a journal"))
        let notAnExport = folder.path("notes.json")
        try Data("{\"hello\": 1}".utf8).write(to: notAnExport)
        let refused = try VoicejournalBinary(home: folder.path("other")).run(["import", notAnExport.path])
        #expect(refused.status == 2)
        #expect(refused.stderr == "voicejournal: \(notAnExport.path) is not a voicejournal export (made by: voicejournal export --format json)\n")

        // One journal: its rows and what they refer to, importable on its own.
        let family = try #require(try cli.succeed(["export", "--format", "json", "--journal", "family"]).json() as? [String: Any])
        let tables = try #require(family["tables"] as? [[String: Any]])
        let rows = { (name: String) in (tables.first { $0["name"] as? String == name }?["rows"] as? [[String: Any]]) ?? [] }
        #expect(rows("journal").compactMap { $0["name"] as? String } == ["Family"])
        #expect(rows("entry").compactMap { $0["content"] as? String } == ["Baked bread with Rose"])
        #expect(rows("transcript").count == 1 && rows("assignment").count == 2)
        #expect(try cli.run(["export", "--format", "json", "--journal", "Nope"]).status == 2)
        #expect(try cli.run(["export", "--format", "json", "--with-audio", "--out", out.path]).status == 2)
    }

    @Test func markdownHasDatesMoodsThemesTextAndRelativeAudioLinksCopiedWithWithAudio() throws {
        let answer = try keepAJournal()
        let out = folder.path("md")
        try cli.succeed(["export", "--out", out.path, "--since", "2026-11-01", "--until", "2026-11-02"])
        let filtered = try String(contentsOf: out.appendingPathComponent("Family.md"), encoding: .utf8)
        #expect(filtered.contains("## 2026-11-01 09:00 (text, happy, family)\n\nBaked bread with Rose\n"))
        let personal = try String(contentsOf: out.appendingPathComponent("Personal.md"), encoding: .utf8)
        #expect(personal.contains("Ran in the rain") && !personal.contains("Quiet day"), "--until includes the whole day, no more")
        #expect(!filtered.contains("Answered questions"), "answered today, after --until")

        // The answer is linked where it is, relative to the export folder.
        try cli.succeed(["export", "--out", out.path, "--force", "--journal", "Family"])
        let family = try String(contentsOf: out.appendingPathComponent("Family.md"), encoding: .utf8)
        let relative = try #require(family.split(separator: "\n").first { $0.hasPrefix("Audio: ") })
        let link = String(try #require(relative.split(separator: "(").dropFirst().first?.split(separator: ")").first))
        let resolved = out.appendingPathComponent(try #require(link.removingPercentEncoding)).standardizedFileURL
        #expect(resolved.path == URL(fileURLWithPath: answer.path).standardizedFileURL.path, "\(link)")
        #expect(family.contains("## Answered questions\n\n### Where did you grow up?\n\nGrandma Rose, "))
        #expect(family.contains("By the harbour, in a blue house."))

        let copied = folder.path("md-audio")
        let withAudio = try cli.succeed(["export", "--out", copied.path, "--with-audio", "--journal", "Family"])
        #expect(withAudio.stdout.contains("1 audio file copied"))
        let text = try String(contentsOf: copied.appendingPathComponent("Family.md"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Audio: ") })
        #expect(line.hasPrefix("Audio: [\(URL(fileURLWithPath: answer.path).lastPathComponent)](audio/"))
        #expect(line.hasSuffix("(0.4 s)"))
        let copyLink = String(try #require(line.split(separator: "(").dropFirst().first?.split(separator: ")").first))
        let copy = copied.appendingPathComponent(copyLink)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: URL(fileURLWithPath: answer.path)))
        #expect(try cli.run(["export", "--with-audio"]).status == 2, "--with-audio needs --out")
    }

    @Test func oneRecordingsTranscriptAsSRTAndVTT() throws {
        let answer = try keepAJournal()
        let srt = try cli.succeed(["export", "--format", "srt", "--recording", String(answer.id)]).stdout
        #expect(srt == "1\n00:00:00,000 --> 00:00:01,500\nBy the harbour,\n\n2\n00:00:01,500 --> 00:00:03,250\nin a blue house.\n")
        let vtt = try cli.succeed(["export", "--format", "vtt", "--recording", String(answer.id)]).stdout
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nBy the harbour,\n"))
        let out = folder.path("subs")
        try cli.succeed(["export", "--format", "vtt", "--recording", String(answer.id), "--out", out.path])
        let name = URL(fileURLWithPath: answer.path).deletingPathExtension().lastPathComponent + ".vtt"
        #expect(try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8) == vtt)
        #expect(try cli.run(["export", "--format", "srt"]).status == 2)
        #expect(try cli.run(["export", "--format", "srt", "--recording", "99"]).status == 2)
    }
}
