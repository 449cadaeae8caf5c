import Foundation
import Testing
import VoiceJournalTestSupport

/// One input format `transcribe` and `meter FILE` take, and how the test makes it from the
/// source audio (placeholders SRC and OUT).
struct InputFormat: Sendable {
    let name: String
    let tool: String
    let arguments: [String]
    /// The API accepts the container by its name, so the file is uploaded unchanged; any
    /// other is decoded and uploaded as 16 kHz mono FLAC.
    let sentAsIs: Bool

    private static func sox(_ name: String, _ extra: [String] = [], sentAsIs: Bool) -> InputFormat {
        InputFormat(name: name, tool: "sox", arguments: ["SRC"] + extra + ["OUT"], sentAsIs: sentAsIs)
    }

    private static func ffmpeg(_ name: String, _ codec: [String], sentAsIs: Bool) -> InputFormat {
        InputFormat(name: name, tool: "ffmpeg", arguments: ["-hide_banner", "-loglevel", "error", "-i", "SRC"] + codec + ["OUT"],
                    sentAsIs: sentAsIs)
    }

    /// Every format issue 9 lists.
    static let all: [InputFormat] = [
        sox("tone 16-bit.wav", ["-b", "16"], sentAsIs: true),
        sox("tone 24-bit.wav", ["-b", "24"], sentAsIs: true),
        sox("tone float.wav", ["-e", "floating-point", "-b", "32"], sentAsIs: true),
        sox("tone.flac", sentAsIs: true),
        sox("tone vorbis.ogg", sentAsIs: true),
        // The API refuses a `.opus` name ("Unsupported file format opus"), not the bytes: an
        // Ogg container, sent as it is under the name `.ogg`.
        ffmpeg("tone.opus", ["-c:a", "libopus"], sentAsIs: true),
        ffmpeg("tone.mp3", ["-c:a", "libmp3lame"], sentAsIs: true),
        sox("tone.aiff", sentAsIs: false),
        sox("tone.caf", sentAsIs: false),
        sox("tone.w64", sentAsIs: false),
        ffmpeg("tone.m4a", ["-c:a", "aac"], sentAsIs: true),
        // A video track first, as a phone's clip: the audio stream is the one decoded.
        InputFormat(name: "tone.mp4", tool: "ffmpeg",
                    arguments: ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=black:s=64x64:d=3:r=10",
                                "-i", "SRC", "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", "OUT"],
                    sentAsIs: true),
        ffmpeg("tone.webm", ["-c:a", "libopus"], sentAsIs: true),
    ]

    /// Makes the file in `folder` from `source`.
    @discardableResult
    func make(from source: URL, in folder: URL) throws -> URL {
        let output = folder.appendingPathComponent(name)
        try runTool(tool, arguments.map { $0 == "SRC" ? source.path : $0 == "OUT" ? output.path : $0 })
        return output
    }

    /// The name the file is uploaded under when sent as it is: named for what its bytes hold.
    var uploadName: String { name.hasSuffix(".opus") ? stem + ".ogg" : name }

    /// The name without its extension: what the stub server's transcript names.
    var stem: String { (name as NSString).deletingPathExtension }
}

/// Every input format, long audio and silence through `transcribe` against the stub server,
/// which records each request's file name, content type, size, SHA-256 and (for WAV and
/// FLAC) the length of the audio it holds. The tools and the binary run on a thread of their
/// own (`onOwnThread`): these runs take long, and must not hold the test pool's few threads
/// from suites that await in the same process.
@Suite struct FormatTests {
    /// The source every format is made from: 2 s of a synthetic voice held at one loudness (a
    /// steady sine would be a hum, never sent) peaking at 0.6 of full scale (-4.4 dBFS), then
    /// 1 s of digital silence (no dither); 44.1 kHz stereo, as a phone records.
    static func toneThenSilence(at url: URL) throws -> URL {
        let voice = SyntheticVoice.samples(seconds: 2, sampleRate: 44100, pitchHz: 150, syllables: false)
        let peak = voice.map(abs).max() ?? 1
        let samples = voice.map { Int16(($0 / peak * 0.6 * 32767).rounded()) } + [Int16](repeating: 0, count: 44100)
        try SyntheticVoice.writeWAV(SyntheticVoice.interleaved(samples, channels: 2), sampleRate: 44100, channels: 2, to: url)
        return url
    }

    /// The recording rows by path: duration in seconds.
    static func durations(_ harness: TranscribeHarness) throws -> [String: Double] {
        let rows = try queryDatabase(harness.database, "SELECT path, durationSeconds FROM recording")
        return Dictionary(rows.compactMap { row in (row[0] as? String).map { ($0, (row[1] as? Double) ?? -1) } },
                          uniquingKeysWith: { first, _ in first })
    }

    /// A `meter FILE` waveform: its header line and how many rows each column fills.
    struct Waveform {
        let header: String
        let heights: [Int]

        init(_ output: String, height: Int) {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            header = lines.first ?? ""
            let grid = lines.dropFirst().prefix(height).map(Array.init)
            let width = grid.map(\.count).max() ?? 0
            heights = (0..<width).map { column in grid.filter { column < $0.count && $0[column] != " " }.count }
        }

        /// The number after `word` in the header ("peak -6.0").
        func number(after word: String) -> Double? {
            let words = header.split(separator: " ")
            return words.firstIndex(of: Substring(word)).flatMap { $0 + 1 < words.count ? Double(words[$0 + 1]) : nil }
        }

        /// The header's length (`mm:ss.s`), in seconds.
        var seconds: Double? {
            header.split(separator: " ").first { $0.count == 7 && $0.dropFirst(2).first == ":" }.flatMap { field in
                let parts = field.split(separator: ":")
                guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
                return minutes * 60 + seconds
            }
        }
    }

    @Test func everyListedFormatIsTranscribedToAStoredTranscriptAndDrawnByMeter() async throws {
        let harness = try TranscribeHarness()
        let dir = harness.folder.path("formats")
        let (result, meters) = try await onOwnThread {
            let source = try Self.toneThenSilence(at: harness.folder.path("source.wav"))
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for format in InputFormat.all { try format.make(from: source, in: dir) }
            let result = try harness.binary.run(["transcribe", dir.path])
            let meters = try InputFormat.all.map { format in
                try harness.binary.run(["meter", dir.appendingPathComponent(format.name).path, "--width", "30", "--height", "8"])
            }
            return (result, meters)
        }
        #expect(result.status == 0, "\(result.stderr)")
        let count = InputFormat.all.count
        #expect(result.stdout.contains("Transcribed \(count) of \(count) files (0 failed, 0 skipped)"), "\(result.stdout)")

        let requests = try harness.server.requests()
        #expect(requests.count == count)
        let problems = requests.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems)")
        let uploads = Dictionary(requests.compactMap { request in request.file.map { ($0.filename ?? "", $0) } },
                                 uniquingKeysWith: { first, _ in first })
        let transcripts = try harness.transcripts()
        let durations = try Self.durations(harness)

        for (format, meter) in zip(InputFormat.all, meters) {
            let file = dir.appendingPathComponent(format.name)
            // Probed through libsndfile or FFmpeg: the stored length is the content's.
            #expect(durations[file.path].map { abs($0 - 3) < 0.1 } == true, "\(format.name): \(String(describing: durations[file.path]))")
            if format.sentAsIs {
                let upload = try #require(uploads[format.uploadName], "\(format.name) was not uploaded as it is: \(uploads.keys.sorted())")
                #expect(upload.sha256 == (try sha256sum(file)), "\(format.name)")
                #expect(transcripts[file.path]?.count == 1 && transcripts[file.path]?.text == "Transcript of \(format.stem).",
                        "\(format.name): \(String(describing: transcripts[file.path]))")
            } else {
                // Not the original container: one FLAC the server can read the length of.
                #expect(uploads[format.name] == nil, "\(format.name) was uploaded in a container the API refuses")
                let upload = try #require(uploads["\(format.name).part1.flac"], "\(format.name): \(uploads.keys.sorted())")
                #expect(upload.contentType == "audio/flac", "\(format.name)")
                #expect(upload.sha256 != (try sha256sum(file)), "\(format.name)")
                // The tone (2 s) and a little padding: the trailing silence is left out.
                let seconds = try #require(upload.audioSeconds, "\(format.name): the upload is not FLAC")
                #expect(seconds > 1.9 && seconds < 3.1, "\(format.name): \(seconds) s sent")
                #expect(transcripts[file.path]?.count == 1 && transcripts[file.path]?.text == "Transcript of \(format.name).part1.",
                        "\(format.name): \(String(describing: transcripts[file.path]))")
            }

            #expect(meter.status == 0, "\(format.name): \(meter.stderr)")
            #expect(meter.stderr.isEmpty, "\(format.name): \(meter.stderr)")
            let waveform = Waveform(meter.stdout, height: 8)
            #expect(waveform.header.hasPrefix("\(format.name)  "), "\(waveform.header)")
            #expect(waveform.seconds.map { abs($0 - 3) < 0.15 } == true, "\(format.name): \(waveform.header)")
            // 0.6 of full scale is -4.4 dBFS; lossy codecs overshoot a little.
            #expect(waveform.number(after: "peak").map { abs($0 + 4.4) < 1 } == true, "\(format.name): \(waveform.header)")
            // 30 columns of 0.1 s over 8 rows of 12 dB: the tone (-4.4 dBFS) lights all 8 in the
            // first two thirds; the silence leaves the rest blank, or the two centre rows for a
            // lossy codec's faint noise.
            let heights = waveform.heights
            #expect(heights.count == 30 && heights[1..<19].allSatisfy { $0 == 8 } && heights[21..<30].allSatisfy { $0 <= 2 },
                    "\(format.name): \(heights)")
        }
    }

    /// Speech-like audio of `seconds`: three espeak-ng sentences with pauses of 0.8, 1.2 and 2 s
    /// after them (about 16 s), encoded once as 16 kHz mono AAC and looped by copying its
    /// packets into an M4A, so half an hour takes a second to make. At 16 kHz nothing is
    /// resampled, which keeps the test quick (the format test resamples AAC from 44.1 kHz).
    @discardableResult
    static func spokenM4A(at url: URL, seconds: Int, in folder: TemporaryFolder) throws -> URL {
        let spoken = folder.path("sentences.wav"), block = folder.path("sentences.m4a")
        try CaptureFixtures.speak("""
            <speak>The garden was quiet this morning, and the tomatoes are finally turning red.<break time='800ms'/>\
            I called my sister after lunch to talk about the trip in August.<break time='1200ms'/>\
            Tomorrow I want to finish the report and go for a long walk.<break time='2s'/></speak>
            """, to: spoken, ssml: true)
        try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", spoken.path, "-ar", "16000", "-c:a", "aac", "-b:a", "48k", block.path])
        try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-stream_loop", "-1", "-i", block.path,
                               "-t", String(seconds), "-c", "copy", url.path])
        return url
    }

    /// The uploads of a split file in part order, checked to be exactly parts 1...n of `name` as FLAC.
    static func parts(of name: String, in requests: [StubRequest]) throws -> [StubRequest.File] {
        let files = requests.compactMap(\.file)
        let byPart = Dictionary(files.compactMap { file -> (Int, StubRequest.File)? in
            guard let filename = file.filename, filename.hasPrefix("\(name).part"), filename.hasSuffix(".flac"),
                  let part = Int(filename.dropFirst(name.count + 5).dropLast(5)) else { return nil }
            return (part, file)
        }, uniquingKeysWith: { first, _ in first })
        #expect(byPart.count == files.count, "every upload is a part, none twice: \(files.compactMap(\.filename))")
        #expect(byPart.keys.sorted() == Array(1...max(byPart.count, 1)), "\(byPart.keys.sorted())")
        return byPart.keys.sorted().compactMap { byPart[$0] }
    }

    @Test func aHalfHourM4AIsSplitAtTheDefaultLimitsAndStitchedIntoOneTranscriptOnItsTimeline() async throws {
        // The server answers each sentence it hears in a part ("region 3 of upload 2") where it
        // hears it: a sentence's words lie in the sentence, as a real model's do.
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: .timed)])
        let dir = harness.folder.path("memos")
        let file = dir.appendingPathComponent("half hour.m4a")
        let result = try await onOwnThread {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Self.spokenM4A(at: file, seconds: 1800, in: harness.folder)
            return try harness.binary.run(["transcribe", dir.path])
        }
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try harness.server.requests()
        let problems = requests.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems)")
        let parts = try Self.parts(of: "half hour.m4a", in: requests)
        // Ten minutes a request at most (the default): at least three for half an hour.
        #expect(parts.count >= 3)
        let lengths = parts.map { $0.audioSeconds ?? -1 }
        #expect(lengths.allSatisfy { $0 > 0 && $0 <= 600 }, "\(lengths)")
        // All the speech is sent: only the middle of the pauses over a second (1.2 s and 2 s in
        // every 15 s of the loop) is left out.
        #expect(lengths.reduce(0, +) > 1400 && lengths.reduce(0, +) < 1700, "\(lengths)")
        #expect(try Self.durations(harness)[file.path].map { abs($0 - 1800) < 1 } == true)

        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.count == 1)
        // Every sentence the server heard in every part is in the text once, the parts in order.
        let heard = requests.reduce(0) { $0 + ($1.regions?.count ?? 0) }
        let sentences = transcript.text.components(separatedBy: "region ").count - 1
        #expect(heard > 300 && sentences == heard, "\(sentences) sentences stored, \(heard) heard")
        // One segment a sentence, shifted onto the file's timeline: in order, the last near its end.
        let starts = try LongAudioTests.segmentStarts(harness, path: file.path)
        #expect(starts.count == heard)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "\(starts)")
        #expect((starts.last ?? 0) > 1780, "\(starts.suffix(3))")
        let ends = try queryDatabase(harness.database, "SELECT json_extract(segments, '$[#-1].end') FROM transcript")
        let lastEnd = try #require(ends.first?.first as? Double)
        #expect(lastEnd <= 1800 && lastEnd > 1785, "the last part reaches the end: \(lastEnd) \(starts.suffix(3)) \(lengths)")
        #expect(LongAudioTests.leftoverChunkFiles(harness).isEmpty)
    }

    @Test func gpt4oGetsNoRequestOverItsCapEvenWhenTheLimitsAllowMore() async throws {
        let harness = try TranscribeHarness()
        let dir = harness.folder.path("in")
        let file = dir.appendingPathComponent("long.wav")
        let result = try await onOwnThread {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            // 25 minutes: over the gpt-4o transcribe models' 1400 s.
            try LongAudioTests.tonesWithPauses(at: file, cycles: 300, tone: 3, pause: 2)
            // A byte limit far above the server's, so only the model's cap can keep the chunks
            // short (FLAC's worst case fits ~790 s in the default limit).
            return try harness.binary.run(["transcribe", dir.path, "--model", "gpt-4o-transcribe",
                                           "--max-chunk-seconds", "3000", "--max-request-bytes", "200000000"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try harness.server.requests()
        let problems = requests.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems)")
        #expect(requests.allSatisfy { $0.field("model") == "gpt-4o-transcribe" && $0.field("response_format") == "json" },
                "\(requests.map { $0.fields ?? [:] })")
        // Every upload is audio whose length the server can read (WAV or FLAC), none over the cap.
        let sent = requests.compactMap(\.file).map { ($0.filename ?? "", $0.audioSeconds ?? .infinity) }
        #expect(!sent.isEmpty && sent.allSatisfy { $0.1 <= 1400 }, "\(sent)")
        let parts = try Self.parts(of: "long.wav", in: requests)
        #expect(parts.count >= 2)
        let lengths = parts.map { $0.audioSeconds ?? -1 }
        // All the speech is sent: 300 tones of 3 s, each pause of 2 s shortened to 0.5 s.
        #expect(lengths.reduce(0, +) > 1000 && lengths.reduce(0, +) < 1100, "all the speech is sent: \(lengths)")
        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.count == 1)
        #expect(transcript.text == parts.indices.map { "Transcript of long.wav.part\($0 + 1)." }.joined(separator: " "))
    }

    @Test func shortSilentFilesTheAPIWouldTakeUploadNothingAndGetEmptyTranscripts() async throws {
        let harness = try TranscribeHarness()
        let dir = harness.folder.path("quiet")
        // 20 s each, well within every limit: without a look at the content they would go as
        // they are. The hiss is white noise at about -70 dBFS RMS.
        let silence = dir.appendingPathComponent("silence.wav"), hiss = dir.appendingPathComponent("hiss.flac")
        let result = try await onOwnThread {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silence.path, "trim", "0", "20"])
            try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", hiss.path, "synth", "20", "whitenoise", "vol", "-60dB"])
            return try harness.binary.run(["transcribe", dir.path])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try harness.server.requests().count == 0)
        let transcripts = try harness.transcripts()
        for file in [silence, hiss] {
            #expect(transcripts[file.path]?.count == 1, "\(file.lastPathComponent)")
            #expect(transcripts[file.path]?.text == "", "\(file.lastPathComponent)")
        }
        #expect(try harness.jobStates().values.sorted() == ["done", "done"])
    }
}

