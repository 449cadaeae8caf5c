import Foundation
import Testing
import VoiceJournalTestSupport

/// Search hits in transcripts (with the segment's time) and in the answers a person gave,
/// through the built binary and the stub server (whose transcript of `NAME.wav` is
/// "Transcript of NAME.": "Transcript of" from 0 s, "NAME." from 1.5 s, in audio 3.25 s long).
@Suite(.onTestThreads) struct SearchTranscriptTests {
    @Test func aTranscriptHitShowsTheSegmentTimeAndPersonNarrowsToTheirAnswers() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let cli = harness.binary
        _ = try harness.succeed(["journal", "create", "Trips"])
        // A file in no journal: its transcript is its only indexed text (an entry made by
        // --journal would also match by its title, the file's name).
        _ = try harness.succeed(["transcribe", harness.tones(["lighthouse.wav"], in: "loose", seconds: 3.25).path])
        let hit = try #require(try harness.succeed(["search", "lighthouse", "--json"]).json() as? [[String: Any]]).first
        #expect(hit?["matchedIn"] as? String == "transcript" && hit?["segmentStart"] as? Double == 1.5)
        #expect(hit?["snippet"] as? String == "Transcript of [lighthouse].")
        let table = try harness.succeed(["search", "lighthouse"]).stdout
        // The word's segment starts at 1.5 s: the command under the hit plays from 00:01.
        #expect(table.hasSuffix("-        @00:01 Transcript of [lighthouse].\n"
                                + String(repeating: " ", count: table.distance(from: table.startIndex, to: table.range(of: "MATCH")!.lowerBound))
                                + "voicejournal play --recording 1 --at 00:01\n") && table.contains("recording #1"), "\(table)")

        _ = try harness.succeed(["transcribe", harness.tones(["harbour.wav"], in: "trips").path, "--journal", "Trips"])
        #expect(try harness.succeed(["search", "transcript", "--journal", "Trips"]).stdout
            .contains("Trips    @00:00 [Transcript] of harbour."))

        // Two answers, one by Rose and one by the user.
        _ = try harness.succeed(["person", "add", "Rose"])
        var assignments: [String: Int] = [:]
        for (person, question) in [("Rose", "Where did you grow up?"), ("me", "What did you dream?")] {
            let asked = try harness.succeed(["question", "add", "--journal", "Trips", question, "--json"])
            let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int)
            let assigned = try harness.succeed(["assign", String(questionId), "--person", person, "--json"])
            let id = try #require((try assigned.json() as? [String: Any])?["id"] as? Int)
            assignments[person] = id
            let audio = try makeTone(at: harness.folder.path("\(person).wav"), frequency: person == "me" ? 300 : 500)
            _ = try harness.succeed(["answer", String(id), "--file", audio.path])
        }
        _ = try harness.succeed(["queue", "run"])

        func answerIds(_ arguments: [String]) throws -> [Int] {
            try #require(try harness.succeed(["search", "transcript", "--json"] + arguments).json() as? [[String: Any]])
                .map { ($0["assignmentId"] as? Int) ?? -($0["entryId"] as? Int ?? 0) }
        }
        #expect(try answerIds([]).count == 4)
        #expect(try answerIds(["--person", "Rose"]) == [assignments["Rose"]!])
        #expect(try answerIds(["--person", "me"]) == [assignments["me"]!])
        #expect(try answerIds(["--person", "Rose", "--journal", "Trips", "--since", "7d"]) == [assignments["Rose"]!])
        #expect(try answerIds(["--person", "Rose", "--mood", "happy"]).isEmpty, "an answer has no mood")
        #expect(try answerIds(["--kind", "voice"]).count == 3, "answers are voice recordings, as the Trips entry is")
        let unknown = try cli.run(["search", "transcript", "--person", "Nobody"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no person named \"Nobody\""))
    }
}
