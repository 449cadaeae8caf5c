import Foundation
import Testing
import VoiceJournalTestSupport

/// A recording split into chunks at its pauses and stitched back, on a real Whisper: it must
/// read as well as the same file sent whole, with every sentence where it was spoken.
@Suite struct LongAudioEndToEndTests {
    static let sentences = [
        "My grandfather kept bees behind the old stone barn.",
        "Every summer we carried the honey down to the village market.",
        "The train to the coast left early on Sunday mornings.",
        "Her garden was full of roses and tall yellow sunflowers.",
        "We learned to swim in the cold river below the mill.",
        "In winter the whole family gathered around the kitchen stove.",
        "My mother wrote letters to her sister every single week.",
        "On my tenth birthday my uncle gave me a red bicycle.",
    ]

    @Test func aFileSplitIntoChunksReadsAsWellAsTheWholeWithSentencesInPlace() async throws {
        let folder = try TemporaryFolder("e2e-chunks")
        let server = try await WhisperServer.shared()
        // Sentences after a second of lead-in, two seconds apart: the starts are known.
        let gap = folder.path("gap.wav"), lead = folder.path("lead.wav")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", gap.path, "trim", "0", "2"])
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", lead.path, "trim", "0", "1"])
        var parts = [lead.path]
        var starts: [Double] = []
        var position = 1.0
        for (index, sentence) in Self.sentences.enumerated() {
            let spoken = try Speech.wav(sentence, in: folder, name: "s\(index)")
            starts.append(position)
            position += try Speech.seconds(of: spoken) + 2
            parts += [spoken.path, gap.path]
        }
        let reference = Self.sentences.joined(separator: " ")

        var texts: [String: String] = [:]
        var cues: [Cue] = []
        for (name, limits) in [("whole", [String]()), ("chunked", ["--max-chunk-seconds", "10"])] {
            let dir = folder.path(name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let file = dir.appendingPathComponent("story.wav")
            try runTool("sox", parts + [file.path])
            let voicejournal = VoicejournalBinary(home: folder.path("home-\(name)"), environment: [
                "OPENAI_BASE_URL": server.baseURL, "VOICEJOURNAL_LOG_LEVEL": "info"])
            let result = try voicejournal.run(["transcribe", dir.path, "--sidecar", "txt,srt"] + limits)
            try requireSuccess(result, "transcribe \(name)")
            // The runner logs each split (a line with "split for upload" and "chunks=N").
            let split = result.stderr.split(separator: "\n").first { $0.contains("split for upload") }
            let chunks = split.flatMap { $0.firstMatch(of: /chunks=(\d+)/) }.flatMap { Int($0.1) } ?? 1
            #expect(name == "whole" ? chunks == 1 : chunks >= 4, "\(name): \(chunks) chunks")
            texts[name] = try String(contentsOf: dir.appendingPathComponent("story.txt"), encoding: .utf8)
            if name == "chunked" {
                cues = try Subtitles.srt(String(contentsOf: dir.appendingPathComponent("story.srt"), encoding: .utf8))
            }
        }
        let whole = WordErrorRate.of(texts["whole"] ?? "", against: reference)
        let chunked = WordErrorRate.of(texts["chunked"] ?? "", against: reference)
        print("WER whole \(WordErrorRate.formatted(whole)), chunked \(WordErrorRate.formatted(chunked))")
        #expect(chunked <= whole + 0.03, "chunked heard \(texts["chunked"] ?? "")")
        #expect(Subtitles.isMonotonic(cues), "\(cues)")
        for (sentence, start) in zip(Self.sentences, starts) {
            #expect(cues.contains { abs($0.start - start) <= 0.5 }, "\(sentence) placed at \(start): \(cues.map(\.start))")
        }
        // No word doubled at a seam: the stitched text has no more words than the sentences.
        #expect(WordErrorRate.words(texts["chunked"] ?? "").count <= WordErrorRate.words(reference).count + 2)
    }
}
