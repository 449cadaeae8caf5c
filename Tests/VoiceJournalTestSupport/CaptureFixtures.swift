import Foundation

/// Audio made by the tests themselves: exact generated signals and espeak-ng speech.
public enum CaptureFixtures {
    /// A sine of half full scale: peak -6.02 dBFS, RMS -9.03 dBFS.
    public static let halfScaleDBFS = 20 * log10(0.5)

    /// A sine at `dbfs` (peak, against 32768) on every channel, interleaved.
    public static func sine(sampleRate: Int, channels: Int = 1, seconds: Double, dbfs: Double, frequency: Double = 1000) -> [Int16] {
        let amplitude = 32768 * pow(10, dbfs / 20)
        let frames = Int((seconds * Double(sampleRate)).rounded())
        var samples: [Int16] = []
        samples.reserveCapacity(frames * channels)
        for frame in 0..<frames {
            let value = Int16(clamping: Int((amplitude * sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate))).rounded()))
            for _ in 0..<channels { samples.append(value) }
        }
        return samples
    }

    /// Digital silence.
    public static func silence(sampleRate: Int, channels: Int = 1, seconds: Double) -> [Int16] {
        Array(repeating: 0, count: Int((seconds * Double(sampleRate)).rounded()) * channels)
    }

    /// espeak-ng saying `text` into the WAV file `wav`, as espeak-ng writes it (22,050 Hz mono
    /// 16-bit): in `voice`, at `wordsPerMinute` (nil: espeak-ng's own default, 175), and with
    /// `ssml` the text is SSML (`<speak>…<break time='800ms'/>…</speak>`). Every test that needs
    /// spoken words makes them here; what they need next (sox, ffmpeg) they do themselves.
    public static func speak(_ text: String, to wav: URL, voice: String = "en-us", wordsPerMinute: Int? = 150,
                             ssml: Bool = false) throws {
        var arguments = ["-v", voice]
        if let wordsPerMinute { arguments += ["-s", "\(wordsPerMinute)"] }
        if ssml { arguments.append("-m") }
        try runTool("espeak-ng", arguments + ["-w", wav.path, text])
    }

    /// espeak-ng saying `text` (150 words a minute), resampled by sox to `sampleRate`, mono, 16-bit.
    public static func speech(_ text: String, sampleRate: Int, voice: String = "en-us") throws -> [Int16] {
        let folder = try TemporaryFolder("vj-speech")
        let wav = folder.path("speech.wav"), raw = folder.path("speech.raw")
        try speak(text, to: wav, voice: voice)
        try runTool("sox", [wav.path, "-r", "\(sampleRate)", "-c", "1", "-b", "16", "-e", "signed", "-t", "raw", raw.path])
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// `samples` cut or padded with silence to exactly `seconds`.
    public static func fitted(_ samples: [Int16], sampleRate: Int, channels: Int = 1, seconds: Double) -> [Int16] {
        let count = Int((seconds * Double(sampleRate)).rounded()) * channels
        if samples.count >= count { return Array(samples.prefix(count)) }
        return samples + Array(repeating: 0, count: count - samples.count)
    }

    /// Two channels interleaved from two mono signals of equal length.
    public static func interleaved(_ left: [Int16], _ right: [Int16]) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(left.count * 2)
        for (l, r) in zip(left, right) { samples.append(l); samples.append(r) }
        return samples
    }

    /// Peak and RMS in dBFS (against 32768), computed plainly for checking the recorder's numbers.
    public static func levels(_ samples: [Int16]) -> (peak: Double, rms: Double) {
        let peak = samples.map { abs(Double($0)) }.max() ?? 0
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        return (20 * log10(max(peak, 1e-9) / 32768), 20 * log10(max(rms, 1e-9) / 32768))
    }
}

/// A WAV file read by hand (not through libsndfile), to check what the recorder wrote.
public struct WAVContents: Sendable {
    public var audioFormat: Int
    public var channels: Int
    public var sampleRate: Int
    public var bitsPerSample: Int
    public var blockAlign: Int
    /// What the header's RIFF size says.
    public var riffSize: Int
    /// What the header's data chunk says.
    public var declaredDataBytes: Int
    /// Audio bytes actually present after the data chunk header.
    public var dataBytesOnDisk: Int
    public var fileSize: Int
    /// The samples the header covers.
    public var samples: [Int16]

    /// Frames the header covers.
    public var frames: Int { declaredDataBytes / max(blockAlign, 1) }

    public init(url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func half(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 44, tag(0) == "RIFF", tag(8) == "WAVE" else { throw ToolFailure(command: "parse \(url.path)", status: 1, stderr: "not RIFF/WAVE") }
        fileSize = bytes.count
        riffSize = word(4)
        var at = 12
        var format: (Int, Int, Int, Int, Int)?
        while at + 8 <= bytes.count {
            let size = word(at + 4)
            if tag(at) == "fmt " {
                format = (half(at + 8), half(at + 10), word(at + 12), half(at + 20), half(at + 22))
            }
            if tag(at) == "data" { break }
            at += 8 + size + (size & 1)
        }
        guard let format, at + 8 <= bytes.count else { throw ToolFailure(command: "parse \(url.path)", status: 1, stderr: "no fmt/data chunk") }
        (audioFormat, channels, sampleRate, blockAlign, bitsPerSample) = format
        declaredDataBytes = word(at + 4)
        dataBytesOnDisk = bytes.count - (at + 8)
        let covered = min(declaredDataBytes, dataBytesOnDisk)
        samples = bytes[(at + 8)..<(at + 8 + covered - covered % 2)].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}

/// Reads the journal database with Python's sqlite3 module: an independent look at what the
/// binary stored. A journal not there yet is an error, never an empty file made by the look.
public enum CaptureDatabase {
    /// Rows of `sql` as dictionaries (column → value).
    public static func rows(home: URL, _ sql: String, _ arguments: [String] = []) throws -> [[String: Any]] {
        let script = """
            import json, pathlib, sqlite3, sys
            db = sqlite3.connect(pathlib.Path(sys.argv[1]).absolute().as_uri() + "?mode=rw", uri=True, timeout=10)
            db.row_factory = sqlite3.Row
            rows = [dict(r) for r in db.execute(sys.argv[2], sys.argv[3:])]
            db.commit()
            print(json.dumps(rows))
            """
        let output = try runTool("python3", ["-c", script, home.appendingPathComponent("voicejournal.sqlite").path, sql] + arguments)
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    }

    /// The lowercase hex SHA-256 of a file, by `sha256sum`.
    public static func sha256(of url: URL) throws -> String {
        String(try runTool("sha256sum", [url.path]).prefix(64))
    }
}
