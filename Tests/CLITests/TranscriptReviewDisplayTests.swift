import Foundation
import Testing
import VoiceJournalTestSupport

/// What the commands show, export and import of a transcript the review marked: unheard
/// stretches in their place, unsure segments marked, the audit under `--raw`, every value
/// in `--json`, audio sent in `stats`, and left-out text never searchable.
@Suite(.onTestThreads) struct TranscriptReviewDisplayTests {
    let folder: TemporaryFolder
    let cli: VoicejournalBinary

    init() throws {
        folder = try TemporaryFolder("vj-review")
        cli = VoicejournalBinary(home: folder.path("home"), environment: ["TZ": "UTC"])
    }

    static let segments = """
        [{"start":2,"end":5.5,"text":" I went down to the harbour.","avgLogprob":-0.3,"noSpeechProb":0.02,
          "words":[{"start":2,"end":2.2,"word":" I"},{"start":2.2,"end":2.6,"word":" went"}]},
         {"start":140,"end":143,"text":" The ferry was late again.","avgLogprob":-1.3}]
        """

    /// A voice entry (a queued 3 s file in Personal) whose transcript the review marked: an
    /// unheard stretch at 02:14.2–02:17.1, a second segment the model was unsure of, "Thanks
    /// for watching!" left out over silence, 12.5 s sent (for 3 s of audio) with one re-send.
    func keepAReviewedEntry() throws {
        let audio = try makeTone(at: folder.path("take.wav"), seconds: 3)
        try cli.succeed(["transcribe", "--no-wait", "--journal", "Personal", audio.path])
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO transcript (recordingId, text, language, model, segments, createdAt, unheard, leftOut, audioSentSeconds, resends)
            VALUES (1, 'I went down to the harbour. The ferry was late again.', 'english', 'whisper-1', ?,
                    '2026-11-02 10:00:00.000', '[{"start":134.2,"end":137.1}]',
                    '[{"start":60,"end":63,"text":" Thanks for watching!","reason":"silence"}]', 12.5, 1)
            """, [Self.segments])
        _ = try CaptureDatabase.rows(home: cli.home, "UPDATE job SET state = 'done'")
    }

    @Test func entryShowMarksTheUnheardStretchInItsPlaceAndTheUnsureSegment() throws {
        try keepAReviewedEntry()
        let page = try cli.succeed(["entry", "show", "1"]).stdout
        #expect(page.contains("""
            [00:02] I went down to the harbour.
            [unheard 02:14–02:18]
            [02:20] The ferry was late again. (?)
            """), "\(page)")
        #expect(!page.contains("watching") && !page.contains("Audio sent"), "the audit is for --raw")
        let raw = try cli.succeed(["entry", "show", "1", "--raw"]).stdout
        #expect(raw.contains("[unheard 02:14–02:18]"))
        #expect(raw.contains("[01:00–01:03] silence: \"Thanks for watching!\""), "\(raw)")
        #expect(raw.contains("Audio sent: 12.5 s (1 re-send)"))
        let help = try cli.succeed(["entry", "show", "--help"]).stdout
        #expect(help.contains("(?)") && help.contains("START-END]") && help.contains("--raw"))
    }

    @Test func entryShowAndListJSONCarryConfidenceWordsAndTheAudit() throws {
        try keepAReviewedEntry()
        let shown = try #require(try cli.succeed(["entry", "show", "1", "--json"]).json() as? [String: Any])
        // A listing leaves the words' times out unless asked for them (--words).
        let listed = try #require((try cli.succeed(["entry", "list", "--json", "--words"]).json() as? [[String: Any]])?.first)
        let nested = try #require((shown["recording"] as? [String: Any])?["transcript"] as? [String: Any])
        let plain = try #require((try cli.succeed(["entry", "list", "--json"]).json() as? [[String: Any]])?.first)
        #expect((plain["segments"] as? [[String: Any]])?.allSatisfy { $0["words"] is NSNull } == true)
        #expect((plain["segments"] as? [[String: Any]])?.first?["avgLogprob"] as? Double == -0.3)
        for document in [shown, listed, nested] {
            let segments = try #require(document["segments"] as? [[String: Any]])
            #expect(segments.map { $0["lowConfidence"] as? Bool } == [false, true])
            #expect(segments[0]["avgLogprob"] as? Double == -0.3 && segments[0]["noSpeechProb"] as? Double == 0.02)
            #expect(segments[1]["noSpeechProb"] is NSNull && segments[1]["words"] is NSNull)
            #expect((segments[0]["words"] as? [[String: Any]])?.last?["word"] as? String == " went")
            let unheard = try #require(document["unheard"] as? [[String: Any]])
            #expect(unheard.count == 1 && unheard[0]["start"] as? Double == 134.2 && unheard[0]["end"] as? Double == 137.1)
            let leftOut = try #require((document["leftOut"] as? [[String: Any]])?.first)
            #expect(leftOut["text"] as? String == " Thanks for watching!" && leftOut["reason"] as? String == "silence")
            #expect(leftOut["start"] as? Double == 60 && leftOut["end"] as? Double == 63)
            #expect(document["audioSentSeconds"] as? Double == 12.5 && document["resends"] as? Int == 1)
        }
        // The keys entries always had keep their meaning: the transcript is still its text.
        #expect(listed["transcript"] as? String == "I went down to the harbour. The ferry was late again.")
        #expect(shown["transcript"] as? String == listed["transcript"] as? String)
    }

    @Test func aTranscriptWithoutAReviewHasEveryKeyEmpty() throws {
        let audio = try makeTone(at: folder.path("old.wav"), seconds: 1)
        try cli.succeed(["transcribe", "--no-wait", "--journal", "Personal", audio.path])
        _ = try CaptureDatabase.rows(home: cli.home, """
            INSERT INTO transcript (recordingId, text, model, segments, createdAt)
            VALUES (1, 'Before the review.', 'whisper-1', '[{"start":0,"end":1,"text":" Before the review."}]', '2026-11-02 10:00:00.000')
            """)
        let shown = try #require(try cli.succeed(["entry", "show", "1", "--json"]).json() as? [String: Any])
        let nested = try #require((shown["recording"] as? [String: Any])?["transcript"] as? [String: Any])
        #expect((nested["unheard"] as? [Any])?.isEmpty == true && (nested["leftOut"] as? [Any])?.isEmpty == true)
        #expect(nested["audioSentSeconds"] is NSNull && nested["resends"] as? Int == 0)
        #expect((nested["segments"] as? [[String: Any]])?.first?["lowConfidence"] as? Bool == false)
        let raw = try cli.succeed(["entry", "show", "1", "--raw"]).stdout
        #expect(raw.contains("Left out: nothing") && raw.contains("Audio sent: not counted"))
        #expect(!(try cli.succeed(["stats"]).stdout.contains("Audio sent")))
    }

    @Test func statsCountAudioSentAndNeverLeaveOutLessThanNothing() throws {
        try keepAReviewedEntry()
        let stats = try #require(try cli.succeed(["stats", "--json"]).json() as? [String: Any])
        #expect(stats["audioSentSeconds"] as? Double == 12.5)
        #expect(stats["audioLeftOutSeconds"] as? Double == 0, "12.5 s sent for 3 s of audio (re-sends): nothing left out, not -9.5")
        #expect(stats["resends"] as? Int == 1)
        _ = try CaptureDatabase.rows(home: cli.home, "UPDATE transcript SET audioSentSeconds = 1.25")
        let again = try #require(try cli.succeed(["stats", "--json"]).json() as? [String: Any])
        #expect(again["audioLeftOutSeconds"] as? Double == 1.75)
        #expect(try cli.succeed(["stats"]).stdout.contains("Audio sent:     1.2 s (1.8 s of pauses and silence left out; 1 re-send)"))
    }

    @Test func leftOutTextIsNeverFound() throws {
        try keepAReviewedEntry()
        let hits = try #require(try cli.succeed(["search", "watching", "--json"]).json() as? [Any])
        #expect(hits.isEmpty)
        let ferry = try #require(try cli.succeed(["search", "ferry", "--json"]).json() as? [Any])
        #expect(ferry.count == 1, "the transcript itself is searchable")
    }

    @Test func exportsMarkTheUnheardStretchInTheTextAndAsACue() throws {
        try keepAReviewedEntry()
        let markdown = try cli.succeed(["export"]).stdout
        #expect(markdown.contains("I went down to the harbour. [unheard 02:14–02:18] The ferry was late again."), "\(markdown)")
        #expect(!markdown.contains("watching"))
        let srt = try cli.succeed(["export", "--format", "srt", "--recording", "1"]).stdout
        #expect(srt.contains("2\n00:02:14,200 --> 00:02:17,100\n[unheard 02:14–02:18]\n"), "\(srt)")
        #expect(srt.contains("3\n00:02:20,000 --> 00:02:23,000\nThe ferry was late again.\n"))
        let vtt = try cli.succeed(["export", "--format", "vtt", "--recording", "1"]).stdout
        #expect(vtt.contains("00:02:14.200 --> 00:02:17.100\n[unheard 02:14–02:18]\n"))
    }

    @Test func theJSONExportRoundTripsTheReview() throws {
        try keepAReviewedEntry()
        let exported = folder.path("export")
        try cli.succeed(["export", "--format", "json", "--out", exported.path])
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        try fresh.succeed(["import", exported.appendingPathComponent("voicejournal.json").path])
        let before = try #require(try cli.succeed(["entry", "show", "1", "--json"]).json() as? [String: Any])
        let after = try #require(try fresh.succeed(["entry", "show", "1", "--json"]).json() as? [String: Any])
        for key in ["segments", "unheard", "leftOut", "audioSentSeconds", "resends"] {
            #expect(NSDictionary(dictionary: before).value(forKey: key) as? NSObject
                    == NSDictionary(dictionary: after).value(forKey: key) as? NSObject, "\(key)")
        }
        #expect(try fresh.succeed(["entry", "show", "1"]).stdout.contains("[unheard 02:14–02:18]"))
        #expect(try fresh.succeed(["entry", "show", "1", "--raw"]).stdout.contains("Thanks for watching!"))
    }

    /// A transcript row of the journal's JSON export with `column` set to `value`.
    func archive(settingTranscript column: String, to value: Any) throws -> URL {
        let archive = try #require(try cli.succeed(["export", "--format", "json"]).json() as? [String: Any])
        var tables = try #require(archive["tables"] as? [[String: Any]])
        let index = try #require(tables.firstIndex { $0["name"] as? String == "transcript" })
        var rows = try #require(tables[index]["rows"] as? [[String: Any]])
        rows[0][column] = value
        tables[index]["rows"] = rows
        var crafted = archive
        crafted["tables"] = tables
        let file = folder.path("crafted-\(UUID().uuidString.prefix(8)).json")
        try JSONSerialization.data(withJSONObject: crafted).write(to: file)
        return file
    }

    static let manyWords = "[{\"start\":0,\"end\":1,\"text\":\" w\",\"words\":["
        + Array(repeating: "{\"start\":0,\"end\":0,\"word\":\"w\"}", count: 100_001).joined(separator: ",") + "]}]"

    @Test(arguments: [
        ("unheard", "[{\"start\":5,\"end\":2}]", "ends (2.0 s) before it starts"),
        ("unheard", "[{\"start\":-1,\"end\":2}]", "is not between 0 and"),
        ("unheard", "{\"start\":1}", "is not a list of stretches"),
        ("leftOut", "[{\"start\":1,\"end\":2,\"text\":\"x\",\"reason\":\"boredom\"}]", "it must be one of no-speech, outside-audio, repetition, silence"),
        ("leftOut", "[{\"start\":1,\"end\":2,\"text\":\"" + String(repeating: "x", count: 100_001) + "\",\"reason\":\"silence\"}]",
         "longer than 100000 characters"),
        ("segments", "[{\"start\":0,\"end\":1,\"text\":\" a\",\"avgLogprob\":3}]", "avgLogprob 3.0"),
        ("segments", "[{\"start\":0,\"end\":1,\"text\":\" a\",\"noSpeechProb\":1.5}]", "noSpeechProb 1.5"),
        ("segments", "[{\"start\":0,\"end\":1,\"text\":\" a\",\"words\":[{\"start\":1e300,\"end\":1e301,\"word\":\"a\"}]}]",
         "is not between 0 and"),
        ("segments", manyWords, "more than 100000 words"),
    ])
    func anImportRefusesAReviewThatIsNoReviewInOneLine(column: String, value: String, problem: String) throws {
        try keepAReviewedEntry()
        let file = try archive(settingTranscript: column, to: value)
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let result = try fresh.run(["import", file.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("voicejournal: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("transcript #1 \(column)") && result.stderr.contains(problem), "\(result.stderr)")
        #expect((try fresh.succeed(["entry", "list", "--json"]).json() as? [Any])?.isEmpty == true, "nothing was imported")
    }

    @Test(arguments: [("audioSentSeconds", -1.0), ("audioSentSeconds", 1e12), ("resends", -2.0), ("resends", 1e9)])
    func anImportRefusesANumberOutOfItsRange(column: String, value: Double) throws {
        try keepAReviewedEntry()
        let file = try archive(settingTranscript: column, to: column == "resends" ? Int(value) as Any : value as Any)
        let fresh = VoicejournalBinary(home: folder.path("fresh"), environment: ["TZ": "UTC"])
        let result = try fresh.run(["import", file.path])
        #expect(result.status == 2 && result.stderr.contains("transcript #1 \(column)"), "\(result.stderr)")
    }
}
