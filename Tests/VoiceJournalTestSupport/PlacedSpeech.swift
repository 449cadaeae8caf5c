import Foundation

/// Speech (espeak-ng, its own leading and trailing silence trimmed) placed at known offsets
/// over quiet noise (about -55 dBFS): long pauses between the utterances, so an upload of its
/// speech leaves most of the file out and every answered time must be mapped back.
public struct PlacedSpeech: Sendable {
    public let url: URL
    /// Where each utterance is, in seconds of the file.
    public let stretches: [Range<Double>]
    public let seconds: Double

    public static let sentences = ["I grew up in a small house by the sea", "We kept a little boat in the harbour",
                                   "My father mended nets every winter", "Then we moved inland to the city"]
    public static let offsets = [2.0, 14.0, 27.5, 38.0]

    /// Makes the file, 16 kHz mono 16-bit, `seconds` long, as `folder/name`: each of `sentences`
    /// said (espeak-ng `voice`) at its offset.
    public static func make(in folder: URL, name: String = "pauses.wav", seconds: Double = 45,
                            sentences: [String] = sentences, offsets: [Double] = offsets, voice: String = "en-us") throws -> PlacedSpeech {
        let work = folder.appendingPathComponent("fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let base = work.appendingPathComponent("base.wav")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", base.path, "synth", String(seconds), "whitenoise", "vol", "0.003"])
        var mix = ["-m", "-v", "1", base.path]
        var stretches: [Range<Double>] = []
        for (index, (sentence, offset)) in zip(sentences, offsets).enumerated() {
            let spoken = work.appendingPathComponent("spoken\(index).wav")
            let trimmed = work.appendingPathComponent("trimmed\(index).wav")
            let placed = work.appendingPathComponent("placed\(index).wav")
            try CaptureFixtures.speak(sentence, to: spoken, voice: voice)
            try runTool("sox", [spoken.path, "-r", "16000", "-c", "1", "-b", "16", trimmed.path,
                                "silence", "1", "0.02", "1%", "reverse", "silence", "1", "0.02", "1%", "reverse"])
            let said = try runTool("soxi", ["-D", trimmed.path]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let length = Double(said) else {
                throw ToolFailure(command: "soxi -D", status: 0, stderr: "no length for \(trimmed.path): \(said)")
            }
            try runTool("sox", [trimmed.path, placed.path, "pad", String(offset), "0"])
            mix += ["-v", "1", placed.path]
            stretches.append(offset..<(offset + length))
        }
        let url = folder.appendingPathComponent(name)
        try runTool("sox", mix + ["-b", "16", url.path, "trim", "0", String(seconds)])
        return PlacedSpeech(url: url, stretches: stretches, seconds: seconds)
    }
}
