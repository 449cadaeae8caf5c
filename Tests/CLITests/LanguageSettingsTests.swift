import Foundation
import Testing
import VoiceJournalTestSupport

/// The languages of journals and people: set, changed, listed and shown through the binary,
/// and one clear usage line for a language Whisper does not know.
@Suite(.onTestThreads) struct LanguageSettingsTests {
    @Test func journalsAndPeopleKeepALanguageAndTranslationThatListingsAndPagesShow() throws {
        let folder = try TemporaryFolder("vj-language")
        let cli = VoicejournalBinary(home: folder.path("home"))
        let created = try #require(try cli.succeed(["journal", "create", "Reise", "--language", "DE", "--translate", "--json"]).json()
            as? [String: Any])
        #expect(created["language"] as? String == "de" && created["translate"] as? Bool == true)
        _ = try cli.succeed(["journal", "create", "Plain"])
        let table = try cli.succeed(["journal", "list"]).stdout
        #expect(table.contains("LANGUAGE"), "\(table)")
        let reiseLine = try #require(table.split(separator: "\n").first { $0.hasPrefix("Reise") })
        let plainLine = try #require(table.split(separator: "\n").first { $0.hasPrefix("Plain") })
        #expect(reiseLine.contains("de +en") && !plainLine.contains("de"), "\(table)")
        let listed = try #require(try cli.succeed(["journal", "list", "--json"]).json() as? [[String: Any]])
        #expect(listed.first { $0["name"] as? String == "Reise" }?["language"] as? String == "de")
        #expect(listed.first { $0["name"] as? String == "Plain" }?["translate"] as? Bool == false)
        #expect(try cli.succeed(["journal", "show", "Reise"]).stdout.contains("Language: German (de), translated to English"))
        #expect(!(try cli.succeed(["journal", "show", "Plain"]).stdout.contains("Language:")))

        // Changing one setting keeps the other.
        #expect(try cli.succeed(["journal", "set", "Reise", "--no-translate"]).stdout == "Journal \"Reise\": language German (de).\n")
        #expect(try cli.succeed(["journal", "set", "Reise", "--language", "pl"]).stdout == "Journal \"Reise\": language Polish (pl).\n")
        let cleared = try #require(try cli.succeed(["journal", "set", "reise", "--no-language", "--json"]).json() as? [String: Any])
        #expect(cleared["language"] is NSNull && cleared["translate"] as? Bool == false)
        #expect(try cli.succeed(["journal", "set", "Plain", "--language", "haw"]).stdout.contains("Hawaiian (haw)"))

        _ = try cli.succeed(["person", "add", "Babcia", "--relationship", "grandmother", "--language", "pl"])
        #expect(try cli.succeed(["person", "set", "Babcia", "--translate"]).stdout == "Babcia: language Polish (pl), translated to English.\n")
        #expect(try cli.succeed(["person", "set", "me", "--language", "yue"]).stdout == "Myself: language Cantonese (yue).\n")
        let people = try cli.succeed(["person", "list"]).stdout
        let babcia = try #require(people.split(separator: "\n").first { $0.contains("Babcia") })
        #expect(babcia.contains("pl +en"), "\(people)")
        let peopleJSON = try #require(try cli.succeed(["person", "list", "--json"]).json() as? [[String: Any]])
        #expect(peopleJSON.map { $0["language"] as? String } == ["yue", "pl"])
        #expect(try cli.succeed(["person", "set", "2", "--no-language", "--no-translate"]).stdout == "Babcia: language detected.\n")
    }

    @Test(arguments: [
        (["journal", "create", "X", "--language", "german"], "'german' (for German use de)"),
        (["journal", "set", "Personal", "--language", "Polish"], "'Polish' (for Polish use pl)"),
        (["person", "add", "Y", "--language", "xx"], "'xx'"),
        (["person", "set", "me", "--language", "eng"], "'eng'"),
        (["entry", "list", "--language", "english"], "(for English use en)"),
        (["search", "harbour", "--language", "zz"], "'zz'"),
        (["transcribe", "/nonexistent", "--language", "spanish"], "(for Spanish use es)"),
    ])
    func anUnknownLanguageIsOneLineExit2SayingWhatCodesAreTaken(arguments: [String], named: String) throws {
        let folder = try TemporaryFolder("vj-language")
        let result = try VoicejournalBinary(home: folder.path("home")).run(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--language takes a language code Whisper knows (ISO-639-1, e.g. en, de, pl; also haw, yue), not "),
                "\(result.stderr)")
        #expect(result.stderr.contains(named), "\(result.stderr)")
    }

    @Test func aChangeNeedsSomethingToChangeAndNoContradiction() throws {
        let folder = try TemporaryFolder("vj-language")
        let cli = VoicejournalBinary(home: folder.path("home"))
        _ = try cli.run(["journal", "create", "Reise"])
        let nothing = try cli.run(["journal", "set", "Reise"])
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to change"), "\(nothing.stderr)")
        let both = try cli.run(["person", "set", "me", "--language", "de", "--no-language"])
        #expect(both.status == 2 && both.stderr.contains("contradict"), "\(both.stderr)")
        let missing = try cli.run(["journal", "set", "Nowhere", "--language", "de"])
        #expect(missing.status == 2 && missing.stderr.contains("no journal named \"Nowhere\""), "\(missing.stderr)")
    }
}

/// An archive's languages are checked like what a user types: a journal's or person's must be
/// a code Whisper knows (it is sent with uploads); a transcript's may be a code or the name an
/// older journal kept.
@Suite(.onTestThreads) struct LanguageImportTests {
    @Test(arguments: [
        ("journal", "'xx'", "journal"), ("person", "'klingon'", "person"), ("transcript", "'elvish'", "transcript"),
    ])
    func anArchiveWithALanguageWhisperDoesNotKnowIsRefusedInOneLine(table: String, value: String, named: String) throws {
        let folder = try TemporaryFolder("vj-language")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["journal", "create", "Reise", "--language", "de"]).status == 0)
        #expect(try cli.run(["person", "add", "Babcia", "--language", "pl"]).status == 0)
        let export = try cli.run(["export", "--format", "json"])
        #expect(export.status == 0, "\(export.stderr)")
        // One transcript row, added to the document as an older journal would hold it.
        let archive = folder.path("archive.json")
        let script = """
            import json, sys
            doc = json.loads(sys.argv[1])
            table, value = sys.argv[2], sys.argv[3]
            tables = {t["name"]: t for t in doc["tables"]}
            if table == "transcript":
                tables["transcript"]["rows"].append({"id": 1, "recordingId": 1, "text": "hola", "language": value, "model": "whisper-1",
                    "segments": "[]", "createdAt": "2026-11-20 10:00:00.000"})
                tables["recording"]["rows"].append({"id": 1, "path": "/tmp/x.wav", "sha256": "ab", "durationSeconds": 1, "sampleRate": 16000,
                    "channels": 1, "format": "wav", "sizeBytes": 100, "state": "complete", "createdAt": "2026-11-20 10:00:00.000"})
            else:
                for row in tables[table]["rows"]:
                    if row.get("language"): row["language"] = value
            open(sys.argv[4], "w").write(json.dumps(doc))
            """
        _ = try runTool("python3", ["-c", script, export.stdout, table, String(value.dropFirst().dropLast()), archive.path])
        let result = try VoicejournalBinary(home: folder.path("fresh")).run(["import", archive.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(named)
                && result.stderr.contains("language") && result.stderr.contains("a language code Whisper knows"), "\(result.stderr)")
    }
}
