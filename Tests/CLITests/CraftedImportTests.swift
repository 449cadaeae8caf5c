import Foundation
import Testing
import VoiceJournalTestSupport

/// `import` against crafted and damaged exports, and what deletes and exports do with a row
/// that names a file: nothing an export holds can make an ordinary delete remove the journal,
/// an export copy a file that is not a recording, or a command crash on a value.
@Suite(.onTestThreads) struct CraftedImportTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-crafted")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
    }

    /// Grandma Rose's journal: `answers` answered questions (audio copied into the home's
    /// audio folder), one with a transcript, and a text entry. Returns each answer's question
    /// and recording.
    func keepAJournal(answers: Int = 2) throws -> [(question: Int, recording: Int, path: String)] {
        try cli.succeed(["journal", "create", "Family"])
        try cli.succeed(["person", "add", "Grandma Rose", "--relationship", "grandmother"])
        var made: [(question: Int, recording: Int, path: String)] = []
        for index in 0..<answers {
            let question = try cli.succeed(["question", "add", "--journal", "Family", "Question \(index + 1)?", "--json"]).jsonID()
            let assignment = try cli.succeed(["assign", String(question), "--person", "Grandma Rose", "--json"]).jsonID()
            let source = try makeTone(at: folder.path("answer-\(index).wav"), seconds: 0.3, frequency: 330 + 110 * index)
            let answered = try #require(try cli.succeed(["answer", String(assignment), "--file", source.path, "--json"]).json()
                                        as? [String: Any])
            made.append((question, try #require(answered["recordingId"] as? Int), try #require(answered["path"] as? String)))
        }
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO transcript (recordingId, text, language, model, segments, createdAt)
            VALUES (?, 'By the harbour, in a blue house.', 'english', 'whisper-1',
                    '[{"start":0,"end":1.5,"text":"By the harbour,"},{"start":1.5,"end":3.25,"text":" in a blue house."}]',
                    '2026-11-02 10:00:00.000')
            """, [String(made[0].recording)])
        try cli.succeed(["entry", "add", "--journal", "Family", "--text", "Baked bread by the harbour", "--date", "2026-11-01T09:00"])
        return made
    }

    /// The journal's JSON export as a document to edit.
    func exported() throws -> [String: Any] {
        try #require(try cli.succeed(["export", "--format", "json"]).json() as? [String: Any])
    }

    /// `archive` with `change` applied to the rows of `table`.
    func edited(_ archive: [String: Any], _ table: String, _ change: (inout [[String: Any]]) -> Void) throws -> [String: Any] {
        var archive = archive
        var tables = try #require(archive["tables"] as? [[String: Any]])
        let index = try #require(tables.firstIndex { $0["name"] as? String == table })
        var rows = tables[index]["rows"] as? [[String: Any]] ?? []
        change(&rows)
        tables[index]["rows"] = rows
        archive["tables"] = tables
        return archive
    }

    /// `archive` with `change` applied to the rows of `table`, written to a file.
    func crafted(_ archive: [String: Any], _ table: String, _ change: (inout [[String: Any]]) -> Void) throws -> URL {
        let file = folder.path("crafted-\(UUID().uuidString.prefix(8)).json")
        try JSONSerialization.data(withJSONObject: try edited(archive, table, change)).write(to: file)
        return file
    }

    /// A refusal: exit 2 and one `voicejournal:` line.
    func expectOneLineRefusal(_ result: CommandResult, naming fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.filter { $0 == "\n" }.count == 1,
                "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: - Paths (finding 11)

    @Test func anImportWhosePathsNameTheDatabaseOrAFolderOfTheHomeIsRefused() throws {
        let answers = try keepAJournal()
        let archive = try exported()
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let home = fresh.home.path
        for path in ["\(home)/voicejournal.sqlite", "\(home)/voicejournal.sqlite-wal", "\(home)/audio", "\(home)/audio/",
                     home, "\(home)/tmp/piece.flac", "\(home)/incoming/x.wav", "\(home)/audio/2026/../../voicejournal.sqlite",
                     "audio/2026/11/x.wav", ""] {
            let file = try crafted(archive, "recording") { rows in rows[0]["path"] = path }
            let result = try fresh.run(["import", file.path])
            expectOneLineRefusal(result, naming: "recording #\(answers[0].recording) path")
            #expect((try fresh.succeed(["entry", "list", "--json"]).json() as? [Any])?.count == 0, "nothing was imported")
        }
        // A folder under audio/ is not a recording's file either.
        try FileManager.default.createDirectory(atPath: "\(home)/audio/2026/11", withIntermediateDirectories: true)
        let folderPath = try crafted(archive, "recording") { rows in rows[0]["path"] = "\(home)/audio/2026/11" }
        expectOneLineRefusal(try fresh.run(["import", folderPath.path]), naming: "not a regular file")

        // Paths outside the new home (the old home's audio) are kept as they are: the import works,
        // and a delete there never removes them.
        try fresh.succeed(["import", try crafted(archive, "recording") { _ in }.path])
        try fresh.succeed(["question", "delete", String(answers[0].question), "--yes"])
        #expect(FileManager.default.fileExists(atPath: answers[0].path))
    }

    @Test func anImportedChunkNamesAFileUnderTmpOrOutsideTheHome() throws {
        let answers = try keepAJournal(answers: 1)
        var archive = try exported()
        var parent = 0
        archive = try edited(archive, "job") { rows in
            parent = rows[0]["id"] as? Int ?? 0
            var chunk = rows[0]
            chunk["id"] = 50
            chunk["kind"] = "transcribe-chunk-1"
            rows.append(chunk)
        }
        archive = try edited(archive, "chunked_job") { rows in
            rows.append(["jobId": parent, "chunkCount": 1, "durationSeconds": 0.3, "open": 0])
        }
        let documents = folder.path("Documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        for path in ["\(fresh.home.path)/audio/2026/11/x.flac", "\(fresh.home.path)/voicejournal.sqlite", "\(fresh.home.path)/tmp"] {
            let file = try crafted(archive, "job_chunk") { rows in
                rows.append(["jobId": 50, "parentJobId": parent, "chunkIndex": 0, "startSeconds": 0, "path": path])
            }
            expectOneLineRefusal(try fresh.run(["import", file.path]), naming: "job_chunk row 1 path")
        }
        // Outside the home it is kept as it is (a runner never removes it: ChunkFileOwnershipTests).
        for (index, path) in [documents.path, "\(fresh.home.path)/tmp/1-abc-job\(parent)-part1.flac"].enumerated() {
            let file = try crafted(archive, "job_chunk") { rows in
                rows.append(["jobId": 50, "parentJobId": parent, "chunkIndex": 0, "startSeconds": 0, "path": path])
            }
            let home = VoicejournalBinary(home: folder.path("fresh-\(index)"), environment: ["TZ": "UTC"])
            try home.succeed(["import", file.path])
        }
        #expect(answers.count == 1)
    }

    @Test func aDeleteNeverRemovesTheDatabaseAFolderOrAFileAnotherRecordingNames() throws {
        // Rows as an import before this rule (or sqlite3) could leave them.
        let answers = try keepAJournal()
        let home = cli.home.path
        let journal = try #require(try CaptureDatabase.rows(home: cli.home, "SELECT id FROM journal WHERE name = 'Family'").first?["id"] as? Int)
        let named = [900: "\(home)/voicejournal.sqlite", 901: "\(home)/audio", 902: answers[1].path, 903: home,
                     904: "\(home)/audio/2026/../../voicejournal.sqlite"]
        for (id, path) in named.sorted(by: { $0.key < $1.key }) {
            _ = try CaptureDatabase.rows(home: cli.home, """
                INSERT INTO entry (id, journalId, kind, content, createdAt) VALUES (?, ?, 'voice', '', '2026-11-05 10:00:00.000')
                """, [String(id), String(journal)])
            _ = try CaptureDatabase.rows(home: cli.home, """
                INSERT INTO recording (path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                VALUES (?, ?, 0.3, 16000, 1, 'wav', 10, 'complete', ?, '2026-11-05 10:00:00.000')
                """, [path, "crafted\(id)", String(id)])
        }
        for id in named.keys.sorted() {
            let result = try cli.run(["entry", "delete", String(id), "--yes"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(home)/voicejournal.sqlite"), "entry \(id) took the database")
        }
        #expect(try cli.succeed(["entry", "list", "--json"]).json() as? [Any] != nil)
        for answer in answers { #expect(FileManager.default.fileExists(atPath: answer.path), "\(answer.path)") }
        // The journal's own delete still removes its own file.
        try cli.succeed(["question", "delete", String(answers[0].question), "--yes"])
        #expect(!FileManager.default.fileExists(atPath: answers[0].path))
        #expect(FileManager.default.fileExists(atPath: answers[1].path))
    }

    @Test func withTheAudioFolderALinkToAnotherDiskDeletesRemoveTheJournalsOwnRecordings() throws {
        let disk = folder.path("big-disk/voicejournal-audio")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: cli.home.appendingPathComponent("audio"), withDestinationURL: disk)
        let answers = try keepAJournal()
        let real = answers.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path }
        #expect(real.allSatisfy { $0.hasPrefix(disk.resolvingSymlinksInPath().path + "/") && FileManager.default.fileExists(atPath: $0) })

        let plan = try cli.succeed(["question", "delete", String(answers[0].question), "--dry-run"]).stdout
        #expect(plan.contains("1 audio file in the data folder") && !plan.contains("Kept"), "\(plan)")
        let deleted = try cli.succeed(["question", "delete", String(answers[0].question), "--yes"])
        #expect(deleted.stdout.contains("and 1 file."), "\(deleted.stdout)")
        #expect(!FileManager.default.fileExists(atPath: real[0]))
        #expect(FileManager.default.fileExists(atPath: real[1]))
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("voicejournal.sqlite").path))
    }

    @Test func anUnfinishedRecordingOutsideTheAudioFolderIsRefusedOnImportAndNeverRepairedOrRemoved() throws {
        let answers = try keepAJournal(answers: 1)
        let notes = folder.path("notes.txt")
        let original = Data("my own notes, not a recording\n".utf8)
        try original.write(to: notes)
        let file = try crafted(try exported(), "recording") { rows in
            rows[0]["state"] = "recording"
            rows[0]["path"] = notes.path
        }
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        expectOneLineRefusal(try fresh.run(["import", file.path]), naming: "recording #\(answers[0].recording) state")

        // The same row made in the database by hand: the next command (which completes
        // recordings a killed recorder left) leaves the file as it is.
        _ = try CaptureDatabase.rows(home: cli.home, "UPDATE recording SET state = 'recording', path = ? WHERE id = ?",
                                     [notes.path, String(answers[0].recording)])
        try cli.succeed(["entry", "add", "--text", "Another day"])
        #expect(try Data(contentsOf: notes) == original)
    }

    // MARK: - Values (finding 13)

    /// A value of the wrong type, outside its set or its range, in the first row of a table.
    struct CraftedValue: Sendable, CustomTestStringConvertible {
        let table: String
        let column: String
        /// The value as JSON.
        let json: String
        var testDescription: String { "\(table).\(column) = \(json)" }
        var value: Any { (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) ?? NSNull() }
    }

    @Test(arguments: [
        CraftedValue(table: "entry", column: "createdAt", json: "\"not a date\""),
        CraftedValue(table: "entry", column: "kind", json: "\"bogus\""),
        CraftedValue(table: "recording", column: "durationSeconds", json: "\"abc\""),
        CraftedValue(table: "recording", column: "durationSeconds", json: "1e308"),
        CraftedValue(table: "transcript", column: "segments", json: #""[{\"start\":\"x\",\"end\":1,\"text\":\"hi\"}]""#),
        CraftedValue(table: "transcript", column: "segments", json: #""[{\"start\":1e308,\"end\":1,\"text\":\"hi\"}]""#),
        CraftedValue(table: "transcript", column: "translationSegments", json: #""[{\"start\":\"x\",\"end\":1,\"text\":\"hi\"}]""#),
        CraftedValue(table: "transcript", column: "translationSegments", json: #""[{\"start\":5,\"end\":1,\"text\":\"hi\",\"words\":[{\"start\":5,\"end\":1,\"word\":\"hi\"}]}]""#),
        CraftedValue(table: "transcript", column: "translation", json: "3"),
        CraftedValue(table: "job", column: "state", json: "\"sleeping\""),
        CraftedValue(table: "assignment", column: "sentAt", json: "\"soon\""),
        CraftedValue(table: "question", column: "displayOrder", json: "\"first\""),
    ])
    func anImportWithAWronglyTypedValueIsRefusedInOneLine(_ value: CraftedValue) throws {
        _ = try keepAJournal(answers: 1)
        let archive = try exported()
        var id = 0
        let file = try crafted(archive, value.table) { rows in
            id = rows[0]["id"] as? Int ?? 0
            rows[0][value.column] = value.value
        }
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        expectOneLineRefusal(try fresh.run(["import", file.path]), naming: "\(value.table) #\(id) \(value.column)")
        #expect(try fresh.succeed(["stats", "--json"]).status == 0)
    }

    @Test func anImportWithARepeatedIdOrAMissingParentIsRefusedInOneLine() throws {
        _ = try keepAJournal(answers: 1)
        let archive = try exported()
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let repeated = try crafted(archive, "entry") { rows in rows.append(rows[0]) }
        let result = try fresh.run(["import", repeated.path])
        expectOneLineRefusal(result, naming: "repeats a value another row of the export has")
        #expect(!result.stderr.contains("SQLite") && !result.stderr.contains("INSERT"))

        let orphan = try crafted(archive, "entry") { rows in rows[0]["journalId"] = 999 }
        let refused = try fresh.run(["import", orphan.path])
        expectOneLineRefusal(refused, naming: "refers to a journal the export does not hold")
        #expect((try fresh.succeed(["entry", "list", "--json"]).json() as? [Any])?.count == 0)
    }

    /// Damage made directly in the database, as sqlite3 could.
    struct Damage: Sendable, CustomTestStringConvertible {
        let sql: String
        var testDescription: String { sql }
    }

    @Test(arguments: [
        Damage(sql: "UPDATE entry SET createdAt = 'not a date'"),
        Damage(sql: "UPDATE entry SET kind = 'bogus'"),
        Damage(sql: "UPDATE recording SET durationSeconds = 'abc'"),
        Damage(sql: "UPDATE transcript SET segments = '[{\"start\":\"x\",\"end\":1,\"text\":\"harbour\"}]'"),
        Damage(sql: "UPDATE job SET runAfter = 'later', state = 'queued'"),
        Damage(sql: "UPDATE transcript SET segments = '[{\"start\":1e308,\"end\":-1e308,\"text\":\"harbour\"}]'"),
        Damage(sql: "UPDATE recording SET durationSeconds = 1e308"),
    ])
    func aJournalDamagedOutsideVoicejournalGivesAnErrorLineNotACrash(_ damage: Damage) throws {
        let answers = try keepAJournal(answers: 1)
        _ = try CaptureDatabase.rows(home: cli.home, damage.sql)
        for command in [["stats"], ["stats", "--json"], ["export", "--format", "json"], ["export"], ["queue", "list"],
                        ["queue", "status"], ["search", "harbour"], ["entry", "list"], ["entry", "show", "1"], ["assignment", "list"],
                        ["export", "--format", "srt", "--recording", String(answers[0].recording)]] {
            let result = try cli.run(command)
            #expect([0, 1, 2].contains(result.status), "\(command): exit \(result.status) \(result.stderr)")
            if result.status != 0 {
                #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.filter { $0 == "\n" }.count == 1,
                        "\(command): \(result.stderr)")
            }
        }
    }

    // MARK: - Export's copies (finding 12)

    @Test func exportWithAudioCopiesOnlyFilesThatStillAreTheRecording() throws {
        let answers = try keepAJournal(answers: 3)
        let secret = folder.path("dot-ssh/id_rsa")
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\nnot for sharing\n".utf8).write(to: secret)
        // The first answer's row names the key (as an imported row may); the second's file was
        // replaced by other bytes of the same size; the third is what it was.
        _ = try CaptureDatabase.rows(home: cli.home, "UPDATE recording SET path = ? WHERE id = ?",
                                     [secret.path, String(answers[0].recording)])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: answers[1].path))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: answers[1].path))

        let out = folder.path("shared")
        let result = try cli.run(["export", "--out", out.path, "--with-audio"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 audio file copied"), "\(result.stdout)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("audio").path)
        #expect(copies.count == 1 && copies[0].hasSuffix("-\(answers[2].recording).wav"), "\(copies)")
        #expect(try Data(contentsOf: out.appendingPathComponent("audio/\(copies[0])")) == Data(contentsOf: URL(fileURLWithPath: answers[2].path)))
        let markdown = try String(contentsOf: out.appendingPathComponent("Family.md"), encoding: .utf8)
        #expect(!markdown.contains("-\(answers[0].recording).wav)") && !markdown.contains("-\(answers[1].recording).wav)"))
        #expect(markdown.contains("Audio: id_rsa (0.3 s), not exported: "), "\(markdown)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.contains { $0.contains("recording #\(answers[0].recording)") && $0.contains(secret.path) && $0.contains("size") })
        #expect(lines.contains { $0.contains("recording #\(answers[1].recording)") && $0.contains("SHA-256") })
    }
}

/// `ask`'s kept conversations in a crafted export: a turn's lists are checked on import like
/// every other row, and a turn naming passages and entries the journal does not hold shows
/// no citation it cannot stand behind.
@Suite(.onTestThreads) struct CraftedAskImportTests {
    @Test func aCraftedTurnIsRefusedOrShownOnlyWithCitationsToPassagesItHolds() throws {
        let folder = try TemporaryFolder("vj-crafted-ask")
        let cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
        let entry = try cli.succeed(["entry", "add", "--text", "Walked by the lake. The water was calm.", "--json"]).jsonID()
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO ask_conversation (id, title, createdAt, updatedAt) VALUES (1, 'Lake?', '2026-11-02 10:00:00.000', '2026-11-02 10:00:00.000')
            """)
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO ask_turn (conversationId, question, passages, facts, answer, cited, removed, model, endpointHost,
                                  promptVersion, inputTokens, outputTokens, seconds, createdAt)
            VALUES (1, 'Where did I walk?', '[{"number":1,"entryId":\(entry)}]', '[]', 'By the lake [1].', '[1]', '[]',
                    'm', '127.0.0.1', 'ask-1', 10, 5, 0.5, '2026-11-02 10:00:00.000')
            """)
        let archive = try #require(try cli.succeed(["export", "--format", "json"]).json() as? [String: Any])
        func crafted(_ change: (inout [String: Any]) -> Void) throws -> URL {
            var archive = archive
            var tables = try #require(archive["tables"] as? [[String: Any]])
            let index = try #require(tables.firstIndex { $0["name"] as? String == "ask_turn" })
            var rows = try #require(tables[index]["rows"] as? [[String: Any]])
            change(&rows[0])
            tables[index]["rows"] = rows
            archive["tables"] = tables
            let file = folder.path("crafted-\(UUID().uuidString.prefix(8)).json")
            try JSONSerialization.data(withJSONObject: archive).write(to: file)
            return file
        }
        // Lists that are not what the column holds: refused in one line, nothing imported.
        for (column, value) in [("passages", "not json" as Any), ("cited", "[\"x\"]"), ("facts", "[" + Array(repeating: "\"f\"", count: 101).joined(separator: ",") + "]")] {
            let fresh = VoicejournalBinary(home: folder.path("fresh-\(column)"), environment: ["TZ": "UTC"])
            let result = try fresh.run(["import", try crafted { $0[column] = value }.path])
            #expect(result.status == 2 && result.stderr.contains("ask_turn #1 \(column)"), "\(column): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
            #expect((try fresh.succeed(["entry", "list", "--json"]).json() as? [Any])?.count == 0)
        }
        // A turn citing passages it never sent, and a passage of an entry not in the journal:
        // imported (the lists are well formed), shown without those citations, no crash.
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let odd = try crafted {
            $0["passages"] = "[{\"number\":1,\"entryId\":\(entry)},{\"number\":2,\"entryId\":999}]"
            $0["cited"] = "[1,2,7]"
            $0["answer"] = "By the lake [1], elsewhere [2], nowhere [7]."
        }
        try fresh.succeed(["import", odd.path])
        let shown = try fresh.run(["ask", "--show", "1"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("#\(entry) "), "\(shown.stdout)")
        #expect(!shown.stdout.contains("#999") && !shown.stdout.contains("show 999"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Cited [2]: no longer in the journal"), "\(shown.stdout)")
        let json = try #require(try fresh.succeed(["ask", "--show", "1", "--json"]).json() as? [[String: Any]])
        let citations = try #require(json.first?["citations"] as? [[String: Any]])
        #expect(citations.map { $0["entryId"] as? Int } == [entry], "\(citations)")
    }
}
