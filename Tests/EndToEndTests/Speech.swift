import Foundation
import VoiceJournalTestSupport

/// Speech the tests make themselves with espeak-ng (150 words a minute unless told), for a real
/// Whisper to recognise.
enum Speech {
    /// Speaks `text` into a 16 kHz mono 16-bit WAV in `folder`, at `speed` words a minute.
    static func wav(_ text: String, voice: String = "en-us", speed: Int = 150, in folder: TemporaryFolder,
                    name: String) throws -> URL {
        let spoken = folder.path("\(name)-espeak.wav"), wav = folder.path("\(name).wav")
        try CaptureFixtures.speak(text, to: spoken, voice: voice, wordsPerMinute: speed)
        try runTool("sox", ["-R", "-D", spoken.path, "-r", "16000", "-c", "1", "-b", "16", wav.path])
        return wav
    }

    /// The length of an audio file in seconds, as sox reads it.
    static func seconds(of file: URL) throws -> Double {
        let output = try runTool("soxi", ["-D", file.path])
        guard let seconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Unexpected(description: "soxi -D \(file.path) printed \(output.debugDescription)")
        }
        return seconds
    }
}

/// A virtual microphone (TestSupport's `VirtualMicrophone`, ALSA's `file` plugin) that says
/// a sentence in espeak-ng's voice, 16 kHz mono.
struct SpeakingMicrophone {
    /// The PCM name to pass as `--device`.
    let device: String
    /// Seconds to record: the whole speech plus a second of silence, and a second less
    /// than the infile holds (the plugin repeats stale data past its end).
    let maxDuration: Int
    /// Environment that makes the PCM exist for the recorder.
    let environment: [String: String]

    init(saying text: String, voice: String = "en-us", in folder: TemporaryFolder) throws {
        let speech = try CaptureFixtures.speech(text, sampleRate: 16000, voice: voice)
        maxDuration = Int((Double(speech.count) / 16000).rounded(.up)) + 1
        let microphone = try VirtualMicrophone(
            in: folder.url, samples: CaptureFixtures.fitted(speech, sampleRate: 16000, seconds: Double(maxDuration + 1)))
        device = microphone.name
        environment = microphone.environment
    }
}

/// The recordings in samples/ and the exact text of each, read from the table in
/// samples/README.md that scripts/make-samples writes.
enum Samples {
    static let folder = PackagePaths.root.appendingPathComponent("samples")

    /// (file name, spoken text) for every row of the table.
    static func scripts() throws -> [(file: String, text: String)] {
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line in
            // | `name.wav` | 5.8 s | en-us | The text. |
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { return nil }
            return (String(cells[0].dropFirst().dropLast()), cells[3])
        }
    }
}
