import Foundation
import Testing
import VoiceJournalTestSupport

/// A server's answer is data: a segment it places at 9e15 s never reaches the store, a clock
/// or a frame count, and every command that reads the transcript (`entry show`, `search
/// --play`, `play --search`) exits normally.
@Suite(.onTestThreads) struct HostileAnswerTimesTests {
    /// A verbose_json answer for a 3.25 s file: one segment said to start at 9e15 s whose
    /// words lie at 0.5–1.6 s, and one with no words at 2e16 s.
    static let crafted = """
        {"task": "transcribe", "language": "english", "duration": 3.25, "text": " lighthouse at sea phantom words",
         "segments": [{"id": 0, "seek": 0, "start": 9e15, "end": 9.000000000000002e15, "text": " lighthouse at sea",
                       "tokens": [1], "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.2, "no_speech_prob": 0.01},
                      {"id": 1, "seek": 0, "start": 2e16, "end": 2.1e16, "text": " phantom words",
                       "tokens": [1], "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.2, "no_speech_prob": 0.01}],
         "words": [{"word": "lighthouse", "start": 0.5, "end": 1.0}, {"word": "at", "start": 1.0, "end": 1.2},
                   {"word": "sea", "start": 1.2, "end": 1.6}]}
        """

    @Test func theCraftedAnswerWithA9e15SecondSegmentIsBoundedAndPlays() throws {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .body(Self.crafted))], environment: ["TZ": "UTC"])
        try harness.succeed(["journal", "create", "Trips"])
        let file = try harness.tones(["harbour.wav"], in: "trips", seconds: 3.25).appendingPathComponent("harbour.wav")
        try harness.succeed(["transcribe", file.path, "--journal", "Trips"])

        let (id, transcript) = try TrustedWordsTests.storedTranscript(harness, file)
        let segments = TrustedWordsTests.segments(transcript)
        #expect(segments.count == 1, "\(segments.map { ($0.start, $0.end, $0.text) })")
        #expect(segments.allSatisfy { $0.start >= 0 && $0.end <= 3.25 && $0.start <= $0.end })
        #expect(abs((segments.first?.start ?? -1) - 0.5) < 1e-9, "the segment starts with its words")
        // The wordless segment placed nowhere in the audio is left out, and the audit says why.
        let leftOut = (transcript["leftOut"] as? [[String: Any]]) ?? []
        #expect(leftOut.contains { $0["reason"] as? String == "outside-audio" && ($0["text"] as? String ?? "").contains("phantom") },
                "\(leftOut)")
        #expect(!(try Self.text(harness, file)).contains("phantom"))

        let page = try harness.succeed(["entry", "show", String(id)]).stdout
        #expect(!page.contains("277777") && page.contains("[00:00]"), "\(page)")
        let raw = try harness.succeed(["entry", "show", String(id), "--raw"]).stdout
        #expect(raw.contains("outside-audio"), "\(raw)")

        let speaker = try VirtualSpeaker(in: harness.folder.url)
        let searched = try harness.binary.run(["search", "lighthouse", "--play", "--device", speaker.name], environment: speaker.environment)
        #expect(searched.status == 0, "\(searched.stderr)")
        #expect(speaker.written().count == 52_000, "the whole 3.25 s from its start")
        let played = try harness.binary.run(["play", "--search", "sea", "--device", speaker.name], environment: speaker.environment)
        #expect(played.status == 0, "\(played.stderr)")
    }

    static func text(_ harness: TranscribeHarness, _ file: URL) throws -> String {
        try #require(try harness.transcripts()[file.path]).text
    }
}
