import Foundation
import Testing
import VoiceJournalTestSupport

/// `entry show` and `entry edit`: corrections are searchable, the original is kept.
@Suite(.onTestThreads) struct EntryCorrectionTests {
    @Test func correctingATranscriptReindexesItKeepsSegmentTimesAndTheOriginal() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC", "VOICEJOURNAL_NOW": "2026-11-23T12:00:00Z"])
        _ = try harness.succeed(["journal", "create", "Trips"])
        // Longer than the stub's answer ("Transcript of" from 0 s, "clip." from 1.5 s to the end).
        let dir = try harness.tones(["clip.wav"], in: "in", seconds: 3.5)
        _ = try harness.succeed(["transcribe", dir.path, "--journal", "Trips"])
        let entry = try #require(try harness.succeed(["search", "transcript", "--json"]).json() as? [[String: Any]]).first?["entryId"] as? Int
        let id = String(try #require(entry))
        #expect(try harness.succeed(["entry", "show", id, "--original"]).stdout == "Entry #\(id) was never corrected.\n")

        // The stub heard "Transcript of clip."; the title (the file's name) says "clip" too.
        let edited = try harness.succeed(["entry", "edit", id, "--text", "Manuscript of clip, Anneliese."])
        #expect(edited.stdout == "Corrected the transcript of entry #\(id); the original: voicejournal entry show \(id) --original\n")
        #expect(try harness.succeed(["search", "transcript"]).stdout == "No matches.\n")
        #expect(try harness.succeed(["search", "manuscript"]).stdout.contains("@00:00 [Manuscript] of clip, Anneliese."))
        let hits = try #require(try harness.succeed(["search", "Anneliese", "--json"]).json() as? [[String: Any]])
        #expect(hits.count == 1 && hits[0]["entryId"] as? Int == entry)
        #expect(hits[0]["segmentStart"] as? Double == 1.5, "the new words stay where the old one was heard")

        let shown = try harness.succeed(["entry", "show", id]).stdout
        #expect(shown.contains("[00:00] Manuscript of\n[00:01] clip, Anneliese."), "\(shown)")
        #expect(shown.contains("Audio: \(dir.path)/clip.wav") && shown.contains("3.5 s · wav · 16000 Hz"), "\(shown)")
        #expect(shown.contains("Corrected: 2026-11-23 12:00"), "\(shown)")
        let original = try harness.succeed(["entry", "show", id, "--original"]).stdout
        #expect(original.hasSuffix("[00:00] Transcript of\n[00:01] clip.\n"), "\(original)")

        let json = try #require(try harness.succeed(["entry", "show", id, "--json"]).json() as? [String: Any])
        let recording = try #require(json["recording"] as? [String: Any])
        #expect((recording["recording"] as? [String: Any])?["path"] as? String == "\(dir.path)/clip.wav")
        let segments = try #require((recording["transcript"] as? [String: Any])?["segments"] as? [[String: Any]])
        #expect(segments.map { $0["start"] as? Double } == [0, 1.5])
        #expect((json["waveform"] as? [Double])?.count == 48)
        #expect((json["original"] as? [String: Any])?["text"] as? String == "Transcript of clip.")
        #expect(json["transcript"] as? String == "Manuscript of clip, Anneliese." && json["id"] as? Int == entry)

        // A second correction keeps the first original.
        _ = try harness.succeed(["entry", "edit", id, "--text", "Manuscript of the clip, Anneliese."])
        #expect(try harness.succeed(["entry", "show", id, "--original"]).stdout.hasSuffix("[00:01] clip.\n"))
    }

    @Test func theEditorCorrectsTypedTextAndAFailedEditorChangesNothing() throws {
        let folder = try TemporaryFolder("vj-edit")
        let cli = VoicejournalBinary(home: folder.path("home"))
        let added = try cli.run(["entry", "add", "--text", "Met Anneliese and Yorg at the market", "--json"])
        let id = String(try #require((try added.json() as? [String: Any])?["id"] as? Int))

        let failed = try cli.run(["entry", "edit", id], environment: ["VISUAL": "", "EDITOR": "false"])
        #expect(failed.status == 1 && failed.stderr.hasPrefix("voicejournal: the editor (false) ended with status 1"))
        let edited = try cli.run(["entry", "edit", id], environment: ["VISUAL": "sed -i s/Yorg/Jörg/", "EDITOR": "false"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasPrefix("Corrected the text of entry #\(id)"))
        #expect(try cli.run(["search", "Yorg"]).stdout == "No matches.\n")
        #expect(try cli.run(["search", "Jörg"]).stdout.contains("Met Anneliese and [Jörg] at the market"))
        #expect(try cli.run(["entry", "show", id, "--original"]).stdout.hasSuffix("Met Anneliese and Yorg at the market\n"))
        // Nothing of the journal is left in the editor's file.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("tmp").path)) ?? []
        #expect(leftovers.isEmpty)
        #expect(try cli.run(["entry", "edit", id], environment: ["VISUAL": "true"]).stdout == "No change to entry #\(id).\n")
        let empty = try cli.run(["entry", "edit", id, "--text", "  "])
        #expect(empty.status == 2 && empty.stderr.contains("the correction is empty"))
    }
}
