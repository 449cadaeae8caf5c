import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

/// One input format: how the test makes it from a 2 s, 1 kHz stereo tone at -6 dBFS peak
/// (44.1 kHz WAV), and what decoding it must give.
struct DecodeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let tool: String
    /// Arguments with SRC and OUT placeholders.
    let arguments: [String]
    let format: String
    let sampleRate: Int
    let backend: AudioDecoder.Backend
    /// Lossy codecs add priming and padding: their length is asserted within 50 ms.
    let lossy: Bool

    var testDescription: String { name }

    static func sox(_ extra: [String]) -> [String] { ["SRC"] + extra + ["OUT"] }
    static func ffmpeg(_ codec: [String]) -> [String] { ["-hide_banner", "-loglevel", "error", "-i", "SRC"] + codec + ["OUT"] }

    static let all: [DecodeCase] = [
        DecodeCase(name: "tone16.wav", tool: "sox", arguments: sox(["-b", "16"]), format: "wav", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone24.wav", tool: "sox", arguments: sox(["-b", "24"]), format: "wav", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tonefloat.wav", tool: "sox", arguments: sox(["-e", "floating-point", "-b", "32"]), format: "wav",
                   sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone.flac", tool: "sox", arguments: sox([]), format: "flac", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone.ogg", tool: "sox", arguments: sox([]), format: "oga", sampleRate: 44100, backend: .sndfile, lossy: true),
        DecodeCase(name: "tone.opus", tool: "ffmpeg", arguments: ffmpeg(["-c:a", "libopus"]), format: "oga", sampleRate: 48000,
                   backend: .sndfile, lossy: true),
        DecodeCase(name: "tone.mp3", tool: "ffmpeg", arguments: ffmpeg(["-c:a", "libmp3lame"]), format: "mp3", sampleRate: 44100,
                   backend: .sndfile, lossy: true),
        DecodeCase(name: "tone.aiff", tool: "sox", arguments: sox([]), format: "aiff", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone.caf", tool: "sox", arguments: sox([]), format: "caf", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone.w64", tool: "sox", arguments: sox([]), format: "w64", sampleRate: 44100, backend: .sndfile, lossy: false),
        DecodeCase(name: "tone.m4a", tool: "ffmpeg", arguments: ffmpeg(["-c:a", "aac"]), format: "m4a", sampleRate: 44100, backend: .ffmpeg, lossy: true),
        // A video track first: the decoder must pick the audio stream and skip the video.
        DecodeCase(name: "tone.mp4", tool: "ffmpeg",
                   arguments: ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=black:s=64x64:d=2:r=10", "-i", "SRC",
                               "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", "OUT"],
                   format: "mp4", sampleRate: 44100, backend: .ffmpeg, lossy: true),
        DecodeCase(name: "tone.webm", tool: "ffmpeg", arguments: ffmpeg(["-c:a", "libopus"]), format: "webm", sampleRate: 48000,
                   backend: .ffmpeg, lossy: true),
    ]
}

@Suite(.onTestThreads) struct AudioDecoderTests {
    /// 2 s of a 1 kHz stereo tone at 0.5 amplitude (RMS -9.03 dBFS), 44.1 kHz 16-bit.
    static func makeSource(in folder: TemporaryFolder) throws -> URL {
        let source = folder.path("source.wav")
        try runTool("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", source.path, "synth", "2", "sine", "1000", "vol", "0.5"])
        return source
    }

    static func make(_ format: DecodeCase, from source: URL, in folder: TemporaryFolder) throws -> URL {
        let output = folder.path(format.name)
        try runTool(format.tool, format.arguments.map { $0 == "SRC" ? source.path : $0 == "OUT" ? output.path : $0 })
        return output
    }

    @Test(arguments: DecodeCase.all)
    func decodesRateChannelsLengthAndLevel(_ format: DecodeCase) throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(format, from: Self.makeSource(in: folder), in: folder)

        let probed = try AudioDecoder.probe(file)
        #expect(probed.sampleRate == format.sampleRate && probed.channels == 2 && probed.format == format.format, "\(probed)")
        #expect(abs(probed.durationSeconds - 2) < 0.05, "stated length \(probed.durationSeconds) s")

        let decoder = try AudioDecoder(url: file)
        #expect(decoder.backend == format.backend)
        var left: [Float] = [], right: [Float] = []
        while true {
            let block = try decoder.read(maxFrames: 4096)
            if block.isEmpty { break }
            #expect(block.count % 2 == 0 && block.count <= 8192)
            for index in stride(from: 0, to: block.count, by: 2) {
                left.append(block[index])
                right.append(block[index + 1])
            }
        }
        let seconds = Double(left.count) / Double(format.sampleRate)
        if format.lossy {
            #expect(abs(seconds - 2) < 0.05, "decoded \(seconds) s")
        } else {
            #expect(left.count == 2 * format.sampleRate)
        }
        #expect(decoder.info.frames == Int64(left.count) && !decoder.info.framesAreEstimated)
        #expect(decoder.framesRead == Int64(left.count))
        // The middle second, away from codec priming and fades: a 0.5-amplitude sine.
        let middle = (format.sampleRate / 2)..<(format.sampleRate * 3 / 2)
        for channel in [left, right] {
            let rms = SignalLevel.rmsDBFS(channel[middle])
            #expect(abs(rms - SignalLevel.dbfs(0.5 / 2.0.squareRoot())) < (format.lossy ? 0.5 : 0.01), "rms \(rms) dBFS")
            let tone = SignalLevel.toneDBFS(channel[middle], frequency: 1000, sampleRate: format.sampleRate)
            #expect(abs(tone - SignalLevel.dbfs(0.5 / 2.0.squareRoot())) < 0.5, "1 kHz at \(tone) dBFS")
        }
    }

    @Test func monoStreamTurnsAStereoM4AInto16kHzMonoAtTheSameLevel() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(DecodeCase.all.first { $0.name == "tone.m4a" }!, from: Self.makeSource(in: folder), in: folder)
        let stream = try MonoPCMStream(url: file)
        #expect(stream.sampleRate == 16000 && stream.backend == .ffmpeg && stream.source.channels == 2)
        #expect(abs(Double(stream.estimatedFrames) - 32000) < 800)
        var samples: [Float] = []
        var blocks = 0
        while let block = try stream.next() {
            samples += block
            blocks += 1
        }
        #expect(blocks > 4)  // streamed, not handed out in one piece
        #expect(abs(samples.count - 32000) < 800, "\(samples.count) frames")
        #expect(stream.framesRead == Int64(samples.count) && stream.estimatedFrames == Int64(samples.count))
        let tone = SignalLevel.toneDBFS(samples[8000..<24000], frequency: 1000, sampleRate: 16000)
        #expect(abs(tone - SignalLevel.dbfs(0.5 / 2.0.squareRoot())) < 0.5, "1 kHz at \(tone) dBFS")
        #expect(try stream.next() == nil)
    }

    @Test func aWebMThatStatesNoLengthIsCountedAndDrawnAcrossItsWholeLength() throws {
        let folder = try TemporaryFolder()
        let source = try Self.makeSource(in: folder), webm = folder.path("live.webm")
        // Written to a pipe, as a browser's MediaRecorder does: no duration in the header.
        try runTool("sh", ["-c", "ffmpeg -hide_banner -loglevel error -i \"$0\" -c:a libopus -f webm pipe:1 > \"$1\"", source.path, webm.path])
        let stated = try AudioDecoder(url: webm).info
        #expect(stated.frames == 0 && stated.framesAreEstimated)

        let probed = try AudioDecoder.probe(webm)
        #expect(!probed.framesAreEstimated && abs(probed.durationSeconds - 2) < 0.05, "\(probed)")
        let summary = try WaveformSummary.make(of: webm, columns: 10)
        #expect(abs(summary.info.durationSeconds - 2) < 0.05)
        #expect(summary.columns.allSatisfy { abs($0.peak - 0.5) < 0.1 }, "\(summary.columns)")
    }

    @Test func textIsRefusedAsNotAudio() throws {
        let folder = try TemporaryFolder()
        let notes = folder.path("notes.m4a")
        try Data("Dear diary, today I did not record anything.\n".utf8).write(to: notes)
        try expectNotAudio(notes)
    }

    @Test func randomBytesAreRefusedAsNotAudio() throws {
        let folder = try TemporaryFolder()
        let noise = folder.path("noise.webm")
        var generator = SeededGenerator(seed: 42)
        try Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)
        try expectNotAudio(noise)
    }

    @Test func anM4AWithoutItsIndexIsRefusedAsDamaged() throws {
        let folder = try TemporaryFolder()
        let file = try Self.make(DecodeCase.all.first { $0.name == "tone.m4a" }!, from: Self.makeSource(in: folder), in: folder)
        let whole = try Data(contentsOf: file)
        let cut = folder.path("cut.m4a")
        try whole.prefix(whole.count / 2).write(to: cut)  // ffmpeg writes the index (moov) last
        try expectNotAudio(cut)
    }

    @Test func aMissingFileSaysSoPlainly() throws {
        let folder = try TemporaryFolder()
        #expect {
            try AudioDecoder(url: folder.path("gone.m4a"))
        } throws: { error in
            String(describing: error).hasSuffix("gone.m4a: no such file") && (error as? SoundFileError)?.kind == .failed
        }
    }

    private func expectNotAudio(_ url: URL) throws {
        #expect {
            try AudioDecoder(url: url)
        } throws: { error in
            guard let error = error as? SoundFileError else { return false }
            return error.kind == .notAudio && error.description.hasPrefix("cannot open \(url.path): not audio or damaged")
        }
        #expect(throws: SoundFileError.self) { try WaveformSummary.make(of: url, columns: 10) }
    }
}

/// Levels of Float signals (full scale ±1.0) for the decoding and resampling tests.
enum SignalLevel {
    static func dbfs(_ amplitude: Double) -> Double { 20 * log10(max(amplitude, 1e-12)) }

    static func rmsDBFS(_ samples: ArraySlice<Float>) -> Double {
        dbfs((samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot())
    }

    /// The RMS level of one frequency in the signal (Goertzel), in dBFS.
    static func toneDBFS(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        // |X(f)| = N·A/2 for a sine of amplitude A; its RMS is A/√2.
        let amplitude = 2 * power.squareRoot() / Double(samples.count)
        return dbfs(amplitude / 2.0.squareRoot())
    }
}
