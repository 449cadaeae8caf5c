import Foundation
import Testing
import VoiceJournalTestSupport

/// Times you can jump to, on a real Whisper (tiny.en through whisper-server/whisper-server): espeak-ng
/// utterances 8–10 s apart over quiet noise, sent with their pauses shortened. Whatever
/// segments the model makes of the shortened pauses, each utterance has a stored segment
/// starting where it is spoken, no word is stretched over a pause, and a search for the last
/// word of each utterance points at that utterance.
@Suite struct TimesEndToEndTests {
    /// Sentences tiny.en hears word for word in espeak-ng's en+m3 voice, and their last words.
    static let sentences = ["This morning I walked down to the river before breakfast.",
                            "Tomorrow I have to remember to call the plumber.",
                            "The train to the city was twenty minutes late.",
                            "I would like to learn to play the piano this winter."]
    static let lastWords = ["breakfast", "plumber", "late", "winter"]

    @Test func everyUtteranceHasASegmentWhereItIsSpokenAndSearchFindsIt() async throws {
        let folder = try TemporaryFolder("e2e-times")
        let speech = try PlacedSpeech.make(in: folder.url, seconds: 52, sentences: Self.sentences, offsets: [2, 15, 29.5, 41],
                                           voice: "en+m3")
        let server = try await WhisperServer.shared()
        let voicejournal = VoicejournalBinary(home: folder.path("home"), environment: ["OPENAI_BASE_URL": server.baseURL])
        try requireSuccess(voicejournal.run(["journal", "create", "Days"]), "journal create")
        try requireSuccess(voicejournal.run(["transcribe", speech.url.path, "--journal", "Days"]), "transcribe")

        let entries = try CLIOutput.list(voicejournal.run(["entry", "list", "--json"]))
        let id = try #require(entries.first.flatMap { CLIOutput.id($0["id"]) })
        let entry = try CLIOutput.object(voicejournal.run(["entry", "show", id, "--json"]))
        let transcript = try #require((entry["recording"] as? [String: Any])?["transcript"] as? [String: Any]
            ?? entry["transcript"] as? [String: Any], "\(entry.keys.sorted())")
        let segments = (transcript["segments"] as? [[String: Any]]) ?? []
        let starts = segments.compactMap { $0["start"] as? Double }
        let described = segments.map { "\($0["start"] ?? "?")–\($0["end"] ?? "?")\($0["text"] ?? "")" }
        for stretch in speech.stretches {
            #expect(starts.contains { abs($0 - stretch.lowerBound) <= 0.5 }, "no segment starts near \(stretch): \(described)")
        }
        let words = segments.flatMap { ($0["words"] as? [[String: Any]]) ?? [] }
        #expect(!words.isEmpty, "the server gave word timings")
        for word in words {
            let start = word["start"] as? Double ?? -1, end = word["end"] as? Double ?? .infinity
            #expect(end - start <= 2, "\(word) is \(end - start) s long")
        }
        for (query, stretch) in zip(Self.lastWords, speech.stretches) {
            let hits = try CLIOutput.list(voicejournal.run(["search", query, "--json"]))
            let start = try #require(hits.first?["segmentStart"] as? Double, "search \(query): \(hits); \(described)")
            #expect(abs(start - stretch.lowerBound) <= 1, "search \(query) at \(start), said at \(stretch)")
        }
    }
}
