import Foundation
import Testing
import VoiceJournalTestSupport

/// A journal kept for someone, its questions' timeline, assignment listings and answers
/// sent twice under one idempotency key; the command's clock is set per step.
@Suite(.onTestThreads) struct QuestionTimelineTests {
    let harness: TranscribeHarness
    var cli: VoicejournalBinary { harness.binary }

    init() throws { harness = try TranscribeHarness(environment: ["TZ": "UTC"]) }

    /// The command's clock for one step (`VOICEJOURNAL_NOW`): by default noon on 23 November 2026.
    static func now(_ time: String = "2026-11-23T12:00:00Z") -> [String: String] { ["VOICEJOURNAL_NOW": time] }

    func id(_ result: CommandResult, _ key: String = "id") throws -> Int {
        try #require((try result.json() as? [String: Any])?[key] as? Int, "\(result.stdout)")
    }

    @Test func journalShowListsEachQuestionAsDraftAwaitingOrAnswered() throws {
        let rose = try id(cli.succeed(["person", "add", "Grandma Rose", "--json"], environment: Self.now()))
        let journal = try #require(try cli.succeed(["journal", "create", "Rose", "--for", "Grandma Rose", "--json"], environment: Self.now()).json() as? [String: Any])
        #expect(journal["dedicatedToPersonId"] as? Int == rose)
        let questions = try ["Where did you grow up?", "What was your first job?", "Who taught you to cook?"].map {
            try id(cli.succeed(["question", "add", "--journal", "Rose", $0, "--json"], environment: Self.now()))
        }
        let assigned = try cli.succeed(["assign", String(questions[0]), "--person", "Grandma Rose"], environment: Self.now("2026-11-20T12:00:00Z"))
        let token = try #require(assigned.stdout.split(separator: "\n").last)
        #expect(token.hasPrefix("Link: http://127.0.0.1:8787/a/") && token.dropFirst(30).count == 32, "\(assigned.stdout)")
        let listedFirst = try #require(try cli.succeed(["assignment", "list", "--json"], environment: Self.now()).json() as? [[String: Any]])
        let first = try #require(listedFirst.first?["id"] as? Int)
        let linkToken = try #require(listedFirst.first?["linkToken"] as? String)
        #expect(listedFirst.count == 1 && token.hasSuffix(linkToken))
        let second = try id(cli.succeed(["assign", String(questions[1]), "--person", "Grandma Rose", "--json"], environment: Self.now("2026-11-20T09:00:00Z")))
        let audio = try makeTone(at: harness.folder.path("answer.wav"), seconds: 3.25)
        try cli.succeed(["answer", String(first), "--file", audio.path], environment: Self.now("2026-11-21T09:30:00Z"))
        try cli.succeed(["queue", "run"], environment: Self.now())

        let answer = try cli.succeed(["assignment", "show", String(first)], environment: Self.now()).stdout
        #expect(answer.contains("Question #\(questions[0]): Where did you grow up?") && answer.contains("Link:    http://127.0.0.1:8787/a/\(linkToken)"), "\(answer)")
        #expect(answer.contains("Audio: ") && answer.contains("\n[00:00] Transcript of\n[00:01] "), "\(answer)")
        let answerJSON = try #require(try cli.succeed(["assignment", "show", String(first), "--json"], environment: Self.now()).json() as? [String: Any])
        #expect(((answerJSON["recording"] as? [String: Any])?["answers"] as? [String: Any])?["person"] as? String == "Grandma Rose")
        #expect(try cli.succeed(["assignment", "show", String(second)], environment: Self.now()).stdout.hasSuffix("Not answered yet: voicejournal answer \(second)\n"))

        let shown = try cli.succeed(["journal", "show", "Rose"], environment: Self.now()).stdout
        let lines = shown.split(separator: "\n").map(String.init)
        #expect(lines.first == "Rose — kept for Grandma Rose — created 2026-11-23 12:00", "\(shown)")
        let rows = lines.filter { $0.contains("#\(questions[0])") || $0.contains("#\(questions[1])") || $0.contains("#\(questions[2])") }
        #expect(rows.count == 3, "\(shown)")
        #expect(rows[0].contains("Where did you grow up?") && rows[0].contains("answered 2026-11-21 09:30 by Grandma Rose: \"Transcript of "), "\(rows[0])")
        #expect(rows[1].contains("What was your first job?") && rows[1].hasSuffix("awaiting Grandma Rose for 3 days"), "\(rows[1])")
        #expect(rows[2].contains("Who taught you to cook?") && rows[2].hasSuffix("draft"), "\(rows[2])")
        let json = try #require(try cli.succeed(["journal", "show", "Rose", "--json"], environment: Self.now()).json() as? [String: Any])
        #expect((json["questions"] as? [[String: Any]])?.compactMap { $0["state"] as? String } == ["answered", "awaiting", "draft"])
        #expect((json["dedicatedTo"] as? [String: Any])?["name"] as? String == "Grandma Rose")

        func listed(_ status: String) throws -> [Int] {
            try #require(try cli.succeed(["assignment", "list", "--status", status, "--json"], environment: Self.now()).json() as? [[String: Any]])
                .compactMap { $0["id"] as? Int }
        }
        #expect(try listed("pending") == [second])
        #expect(try listed("answered") == [first])
        let sent = try cli.run(["assignment", "list", "--status", "sent"])
        #expect(sent.status == 2, "\(sent.stderr)")
    }
}

extension QuestionTimelineTests {
    @Test func theSameIdempotencyKeyTwiceReturnsTheFirstRecordingAndStoresNoSecond() throws {
        try cli.succeed(["journal", "create", "Week"], environment: Self.now())
        let question = try id(cli.succeed(["question", "add", "--journal", "Week", "Best day this week?", "--json"], environment: Self.now()))
        let assignment = try id(cli.succeed(["assign", String(question), "--person", "me", "--json"], environment: Self.now()))
        let audio = try makeTone(at: harness.folder.path("answer.wav"), seconds: 3.25)
        let once = try cli.succeed(["answer", String(assignment), "--file", audio.path, "--idempotency-key", "try-1", "--json"], environment: Self.now())
        let recording = try id(once, "recordingId")
        let twice = try cli.succeed(["answer", String(assignment), "--file", audio.path, "--idempotency-key", "try-1", "--json"], environment: Self.now())
        #expect(try id(twice, "recordingId") == recording)
        #expect(twice.stderr.contains("this answer was saved before with the same idempotency key (try-1): recording \(recording)"))
        let rows = try CaptureDatabase.rows(home: cli.home, "SELECT id, idempotencyKey FROM recording")
        #expect(rows.count == 1 && rows.first?["idempotencyKey"] as? String == "try-1")
        let copies = try FileManager.default.subpathsOfDirectory(atPath: cli.home.appendingPathComponent("audio").path)
            .filter { $0.hasSuffix(".wav") }
        #expect(copies.count == 1, "the audio was copied once: \(copies)")

        // Without a key each attempt is new: a second answer to an answered assignment is refused.
        let again = try cli.run(["answer", String(assignment), "--file", audio.path])
        #expect(again.status == 2 && again.stderr.contains("already answered"))
        // A key belongs to its answer: used for another assignment it is refused.
        let other = try id(cli.succeed(["assign", String(question), "--person", "me", "--json"], environment: Self.now()))
        let reused = try cli.run(["answer", String(other), "--file", audio.path, "--idempotency-key", "try-1"])
        #expect(reused.status == 2 && reused.stderr.contains("was used for recording \(recording)"), "\(reused.stderr)")
    }
}
