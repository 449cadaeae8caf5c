import Foundation
import Testing
import VoiceJournalTestSupport

/// `restore` against crafted and damaged backups: each refused with one line, exit 2, and
/// nothing restored — no row, no file under the home's audio folder, nothing outside it.
@Suite(.onTestThreads) struct CraftedBackupTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary
    let backup: URL

    /// A journal with an answered question (its audio in the home) and a text entry, backed up.
    init() throws {
        folder = try TemporaryFolder("vj-crafted-backup")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
        try cli.succeed(["journal", "create", "Family"])
        try cli.succeed(["person", "add", "Grandma Rose"])
        let question = try cli.succeed(["question", "add", "--journal", "Family", "Where?", "--json"]).jsonID()
        let assignment = try cli.succeed(["assign", String(question), "--person", "Grandma Rose", "--json"]).jsonID()
        let source = try makeTone(at: folder.path("answer.wav"), seconds: 0.3)
        try cli.succeed(["answer", String(assignment), "--file", source.path])
        try cli.succeed(["entry", "add", "--journal", "Family", "--text", "Baked bread"])
        backup = folder.path("good.tar")
        try cli.succeed(["backup", backup.path])
    }

    /// Rewrites the good backup with Python's tarfile: `change` is Python that edits `members`
    /// (a list of [name, bytes]) and may use `sqlite3` on the database at `db`.
    func crafted(_ name: String, _ change: String) throws -> URL {
        let out = folder.path(name)
        let script = """
            import io, json, os, sqlite3, sys, tarfile, tempfile
            src, out = sys.argv[1], sys.argv[2]
            with tarfile.open(src) as t:
                members = [[m.name, t.extractfile(m).read()] for m in t.getmembers()]
            db = tempfile.mktemp()
            open(db, 'wb').write(dict(members)['voicejournal.sqlite'])
            def manifest(): return json.loads(dict(members)['manifest.json'])
            def put(name, data):
                for m in members:
                    if m[0] == name: m[1] = data; return
                members.insert(len(members) - 1, [name, data])
            \(change.split(separator: "\n").joined(separator: "\n"))
            with tarfile.open(out, 'w', format=tarfile.USTAR_FORMAT) as t:
                for name, data in members:
                    info = tarfile.TarInfo(name); info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            """
        _ = try runTool("python3", ["-c", script, backup.path, out.path])
        return out
    }

    /// The restore into a new home is refused with `words` in one stderr line, and nothing is there after.
    func expectRefused(_ file: URL, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let home = folder.path("restored-\(UUID().uuidString.prefix(6))")
        let other = VoicejournalBinary(home: home, environment: ["TZ": "UTC"])
        let result = try other.run(["restore", file.path])
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(words) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(try other.run(["entry", "list"]).stdout.contains("No entries"), sourceLocation: sourceLocation)
        let left = (FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix("voicejournal.sqlite") && $0 != "tmp" && $0 != "audio" }
        #expect(left.isEmpty, "left behind: \(left)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: folder.path("escaped").path), sourceLocation: sourceLocation)
    }

    @Test func theGoodBackupRestores() throws {
        let other = VoicejournalBinary(home: folder.path("fine"), environment: ["TZ": "UTC"])
        try other.succeed(["restore", backup.path])
        #expect(try other.succeed(["entry", "list"]).stdout.contains("Baked bread"))
    }

    @Test func damagedOrForeignFilesAreRefused() throws {
        let text = folder.path("notes.txt")
        try Data("not a backup".utf8).write(to: text)
        try expectRefused(text, "is not a voicejournal backup")
        let data = try Data(contentsOf: backup)
        let cut = folder.path("cut.tar")
        try data.prefix(data.count / 2).write(to: cut)
        try expectRefused(cut, "damaged")
        var flipped = data
        flipped[1024 + 700] ^= 0xFF  // a byte of the database
        let flippedFile = folder.path("flipped.tar")
        try flipped.write(to: flippedFile)
        try expectRefused(flippedFile, "is not the file its manifest describes")
    }

    @Test func namesThatLeadOutOfTheAudioFolderAreRefused() throws {
        try expectRefused(try crafted("dots.tar", """
            m = manifest(); a = m['audio'][0]; old = a['name']; a['name'] = 'audio/../../escaped'
            for x in members:
                if x[0] == old: x[0] = 'audio/../../escaped'
            put('manifest.json', json.dumps(m).encode())
            """), "not a plain name under audio/")
        try expectRefused(try crafted("extra.tar", "put('../escaped', b'x')"), "which its manifest does not list")
        try expectRefused(try crafted("absolute.tar", "put('/tmp/escaped', b'x')"), "which its manifest does not list")
    }

    @Test func aDatabaseWithSQLOfItsOwnIsRefused() throws {
        for (name, sql, words) in [
            ("view.tar", "CREATE VIEW sneaky AS SELECT 1", "view"),
            ("trigger.tar", "CREATE TRIGGER sneaky AFTER INSERT ON entry BEGIN SELECT 1; END", "trigger"),
            ("table.tar", "CREATE TABLE extra (x)", "table"),
        ] {
            try expectRefused(try crafted(name, """
                c = sqlite3.connect(db); c.execute("PRAGMA journal_mode=DELETE"); c.execute("\(sql)"); c.commit(); c.close()
                import hashlib
                data = open(db, 'rb').read(); put('voicejournal.sqlite', data)
                m = manifest(); m['database']['size'] = len(data); m['database']['sha256'] = hashlib.sha256(data).hexdigest()
                put('manifest.json', json.dumps(m).encode())
                """), words)
        }
    }

    @Test func aRowThatNamesTheJournalItselfIsRefused() throws {
        try expectRefused(try crafted("row.tar", """
            c = sqlite3.connect(db); c.execute("UPDATE recording SET path = 'voicejournal.sqlite', state = 'recording'"); c.commit(); c.close()
            import hashlib
            data = open(db, 'rb').read(); put('voicejournal.sqlite', data)
            m = manifest(); m['database']['size'] = len(data); m['database']['sha256'] = hashlib.sha256(data).hexdigest()
            put('manifest.json', json.dumps(m).encode())
            """), "this backup cannot be restored: recording #1")
    }
}
