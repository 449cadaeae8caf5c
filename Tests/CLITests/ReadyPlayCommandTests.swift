import Foundation
import Testing
import VoiceJournalTestSupport

/// The commands `search`, `entry show` and `assignment show` print to play what they show,
/// through the built binary and the stub server (whose transcript of `NAME.wav` is
/// "Transcript of NAME.": "Transcript of" from 0 s, "NAME." from 1.5 s).
@Suite(.onTestThreads) struct ReadyPlayCommandTests {
    /// The seconds a ready command's `--at` names (0 without one).
    static func start(of command: String) -> Double? {
        let parts = command.split(separator: " ")
        guard let index = parts.firstIndex(of: "--at") else { return 0 }
        guard index + 1 < parts.count else { return nil }
        return parts[index + 1].split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? .nan) }
    }

    @Test func aSearchHitsCommandStartsWithinASecondBeforeItsSegment() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        // A file in no journal: its transcript is its only indexed text (an entry's title, the
        // file's name, would match better and is no moment in the recording).
        _ = try harness.succeed(["transcribe", harness.tones(["lighthouse.wav"], in: "loose", seconds: 3.25).path])
        let heard = try #require(try harness.succeed(["search", "lighthouse", "--json"]).json() as? [[String: Any]]).first
        let command = try #require(heard?["play"] as? String)
        #expect(command == "voicejournal play --recording 1 --at 00:01")
        let segmentStart = try #require(heard?["segmentStart"] as? Double)
        let at = try #require(Self.start(of: command))
        #expect(at <= segmentStart && segmentStart - at <= 1, "\(command) for a segment at \(segmentStart) s")
        let table = try harness.succeed(["search", "lighthouse"]).stdout
        #expect(table.contains("@00:01 Transcript of [lighthouse].\n") && table.hasSuffix(" \(command)\n"), "\(table)")
        // An entry's hit plays the entry.
        _ = try harness.succeed(["journal", "create", "Trips"])
        _ = try harness.succeed(["transcribe", harness.tones(["harbour.wav"], in: "trips", seconds: 3.25).path, "--journal", "Trips"])
        let entryHit = try #require(try harness.succeed(["search", "transcript", "--journal", "Trips", "--json"]).json() as? [[String: Any]]).first
        #expect(entryHit?["play"] as? String == "voicejournal play \(entryHit?["entryId"] as? Int ?? -1)", "its word is said from 0 s")
        // A typed entry's hit has no command.
        _ = try harness.succeed(["entry", "add", "--text", "a lighthouse on a postcard"])
        let typed = try #require(try harness.succeed(["search", "postcard", "--json"]).json() as? [[String: Any]]).first
        #expect(typed?["play"] is NSNull)
        #expect(!(try harness.succeed(["search", "postcard"]).stdout.contains("voicejournal play")))
    }

    @Test func entryShowAndAssignmentShowSayHowToPlayTheRecordingAndEachSegment() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        _ = try harness.succeed(["journal", "create", "Trips"])
        _ = try harness.succeed(["transcribe", harness.tones(["harbour.wav"], in: "trips", seconds: 3.25).path, "--journal", "Trips"])
        let page = try harness.succeed(["entry", "show", "1"]).stdout
        #expect(page.contains("\nPlay:  voicejournal play 1\n"), "\(page)")
        let json = try #require(try harness.succeed(["entry", "show", "1", "--json"]).json() as? [String: Any])
        let recording = try #require(json["recording"] as? [String: Any])
        #expect(recording["play"] as? String == "voicejournal play 1")
        let segments = (recording["transcript"] as? [String: Any])?["segments"] as? [[String: Any]]
        #expect(segments?.compactMap { $0["play"] as? String } == ["voicejournal play 1", "voicejournal play 1 --at 00:01"], "\(json)")
        #expect((json["segments"] as? [[String: Any]])?.compactMap { $0["play"] as? String }.count == 2)

        _ = try harness.succeed(["person", "add", "Rose"])
        let question = try #require((try harness.succeed(["question", "add", "--journal", "Trips", "Where did you grow up?", "--json"])
            .json() as? [String: Any])?["id"] as? Int)
        let id = try #require((try harness.succeed(["assign", String(question), "--person", "Rose", "--json"]).json() as? [String: Any])?["id"] as? Int)
        let audio = try makeTone(at: harness.folder.path("rose.wav"), seconds: 3.25, frequency: 500)
        _ = try harness.succeed(["answer", String(id), "--file", audio.path])
        _ = try harness.succeed(["queue", "run"])
        let answer = try harness.succeed(["assignment", "show", String(id)]).stdout
        #expect(answer.contains("\nPlay:  voicejournal play --assignment \(id)\n"), "\(answer)")
        let answerJSON = try #require(try harness.succeed(["assignment", "show", String(id), "--json"]).json() as? [String: Any])
        let answered = (answerJSON["recording"] as? [String: Any])?["transcript"] as? [String: Any]
        #expect((answered?["segments"] as? [[String: Any]])?.last?["play"] as? String == "voicejournal play --assignment \(id) --at 00:01")
        let hit = try #require(try harness.succeed(["search", "transcript", "--person", "Rose", "--json"]).json() as? [[String: Any]]).first
        #expect(hit?["play"] as? String == "voicejournal play --assignment \(id)", "its word is said from 0 s")
    }

    @Test func playFlagsSayInOneLineWhenThereIsNothingToPlay() throws {
        let harness = try TranscribeHarness()
        let cli = harness.binary
        _ = try harness.succeed(["entry", "add", "--text", "only typed words"])
        let both = try cli.run(["search", "typed", "--play", "--json"])
        #expect(both.status == 2 && both.stderr.contains("--play and --json cannot go together"), "\(both.stderr)")
        let typed = try cli.run(["search", "typed", "--play"])
        #expect(typed.status == 1 && typed.stdout.contains("only [typed] words"), "the hits are listed first: \(typed.stdout)")
        #expect(typed.stderr == "voicejournal: nothing to play: no match for \"typed\" lies in a recording\n", "\(typed.stderr)")
        let none = try cli.run(["search", "absent", "--play"])
        #expect(none.status == 1 && none.stderr.contains("nothing to play: no match for \"absent\""), "\(none.stderr)")

        _ = try harness.succeed(["journal", "create", "Family"])
        _ = try harness.succeed(["person", "add", "Rose"])
        let question = try #require((try harness.succeed(["question", "add", "--journal", "Family", "Where?", "--json"])
            .json() as? [String: Any])?["id"] as? Int)
        let id = try #require((try harness.succeed(["assign", String(question), "--person", "Rose", "--json"]).json() as? [String: Any])?["id"] as? Int)
        let open = try cli.run(["assignment", "show", String(id), "--play"])
        #expect(open.status == 1 && open.stdout.contains("Not answered yet"), "\(open.stdout)")
        #expect(open.stderr.contains("assignment #\(id) is not answered yet") && open.stderr.split(separator: "\n").count == 1, "\(open.stderr)")
        #expect(try cli.run(["assignment", "show", String(id), "--play", "--json"]).status == 2)
    }

    /// The 16-bit samples of a WAV `makeTone` wrote (its header is the plain 44 bytes).
    static func samples(of url: URL) throws -> [Int16] {
        try Data(contentsOf: url).dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func searchPlayListsTheHitsThenPlaysTheBestFromASecondBeforeIt() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        let file = try harness.tones(["lighthouse.wav"], in: "loose", seconds: 3.25).appendingPathComponent("lighthouse.wav")
        _ = try harness.succeed(["transcribe", file.path])
        let result = try harness.binary.run(["search", "lighthouse", "--play", "--device", speaker.name], environment: speaker.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("voicejournal play --recording 1 --at 00:01\n"), "listed first: \(result.stdout)")
        #expect(result.stderr.isEmpty, "off a terminal nothing but errors")
        // The word's segment starts at 1.5 s: playback from 1 s, to the end.
        #expect(speaker.written() == Array(try Self.samples(of: file).dropFirst(16_000)))
    }

    @Test func assignmentShowPlayShowsTheAnswerThenPlaysIt() throws {
        let harness = try TranscribeHarness()
        let speaker = try VirtualSpeaker(in: harness.folder.url)
        _ = try harness.succeed(["journal", "create", "Family"])
        _ = try harness.succeed(["person", "add", "Rose"])
        let question = try #require((try harness.succeed(["question", "add", "--journal", "Family", "Where?", "--json"])
            .json() as? [String: Any])?["id"] as? Int)
        let id = try #require((try harness.succeed(["assign", String(question), "--person", "Rose", "--json"]).json() as? [String: Any])?["id"] as? Int)
        let audio = try makeTone(at: harness.folder.path("rose.wav"), seconds: 1.5, frequency: 500)
        _ = try harness.succeed(["answer", String(id), "--file", audio.path])
        let result = try harness.binary.run(["assignment", "show", String(id), "--play", "--device", speaker.name], environment: speaker.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Play:  voicejournal play --assignment \(id)\n"), "\(result.stdout)")
        #expect(speaker.written() == (try Self.samples(of: audio)), "the whole answer, from its start")
    }
}
