@testable import VoiceJournalAudio
import Foundation
import Logging
import Synchronization
import Testing
import VoiceJournalTestSupport

/// Files played through real ALSA (the `file` plugin as the speaker): what lands in its raw
/// file is compared with the file's own samples, exactly when the device takes the file's
/// rate, and with the signal itself when a 16 kHz device makes libsamplerate convert.
@Suite struct PlaybackFileTests {
    private let logger = Logger(label: "test.playback")

    /// 3 s of 16 kHz mono that never repeats within a period.
    private static let samples: [Int16] = (0..<48_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }

    private func wav(_ samples: [Int16], rate: Int = 16000, channels: Int = 1, in folder: TemporaryFolder) throws -> URL {
        let raw = folder.url.appendingPathComponent("samples.raw"), url = folder.url.appendingPathComponent("take.wav")
        try samples.withUnsafeBytes { Data($0) }.write(to: raw)
        _ = try runTool("sox", ["-t", "raw", "-r", "\(rate)", "-e", "signed", "-b", "16", "-c", "\(channels)", raw.path, url.path])
        return url
    }

    private func play(_ file: URL, on speaker: VirtualSpeaker, from: Double = 0, to: Double? = nil,
                      measuresLevel: Bool = false) async throws -> (PlaybackSession, PlaybackResult) {
        let session = try PlaybackSession(file: file, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                          from: from, to: to, measuresLevel: measuresLevel, logger: logger)
        session.start()
        return (session, await session.result())
    }

    @Test(arguments: [0.0, 0.5, 1.25, 2.99])
    func aWAVAtTheDevicesRatePlaysItsOwnSamplesFromTheStart(at seconds: Double) async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let (session, result) = try await play(try wav(Self.samples, in: folder), on: speaker, from: seconds)
        let first = Int((seconds * 16000).rounded())
        #expect(result.end == .finished && result.underruns == 0)
        #expect(!session.isResampled && session.deviceFormat.sampleRate == 16000)
        #expect(speaker.written() == Array(Self.samples[first...]))
        let status = session.status()
        #expect(status.totalSeconds == 3.0 && status.endSeconds == 3.0 && abs(status.seconds - 3.0) < 0.001)
    }

    @Test func aTimeFarPastAnyAudioIsTheEndNotACrash() async throws {
        #expect(frameCount(seconds: 9e15, rate: 16000) == FrameCount.largest)
        #expect(frameCount(seconds: .infinity, rate: 48000) == FrameCount.largest)
        #expect(frameCount(seconds: .nan, rate: 16000) == 0 && frameCount(seconds: -3, rate: 16000) == 0)
        #expect(frameCount(seconds: 1.25, rate: 16000) == 20_000)
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        // Started at 9e15 s, the session has nothing to play; sought there, it ends.
        let (_, fromFar) = try await play(try wav(Self.samples, in: folder), on: speaker, from: 9e15)
        #expect(fromFar.end == .finished && fromFar.framesPlayed == 0)
        let session = try PlaybackSession(file: try wav(Self.samples, in: folder), deviceName: speaker.name,
                                          configuration: ALSAConfiguration(text: speaker.configText), from: 0, to: 9e15, logger: logger)
        session.seek(toSeconds: 9e15)
        session.start()
        let result = await session.result()
        #expect(result.end == .finished && result.framesPlayed < 48_000)
    }

    @Test func aFileCutWhileItPlaysEndsCutShort() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        // The speaker's file is a FIFO of one page, read 0.1 s of audio every 25 ms: playback is
        // paced (four times real time), so the file can be cut while it plays.
        #expect(mkfifo(speaker.outfile.path, 0o600) == 0)
        let path = speaker.outfile.path
        let tenSeconds = (0..<160_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }
        let file = try wav(tenSeconds, in: folder)
        let filePath = file.path
        // Once a second of it has been heard, all but its first second is cut off the file. The
        // reader cuts it itself: a task waiting for that could wake seconds late on a busy
        // cooperative pool, after the whole file had played.
        let cut = Mutex<Int32?>(nil)
        let reader = Thread {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return }
            // F_SETPIPE_SZ (a _GNU_SOURCE macro Swift does not import): the smallest pipe.
            _ = fcntl(descriptor, 1031, Int32(4096))
            var buffer = [UInt8](repeating: 0, count: 3200)
            var read = 0
            while true {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                guard got > 0 else { break }
                read += got
                if read >= 32_000, cut.withLock({ $0 }) == nil {
                    let status = truncate(filePath, 44 + 32_000)
                    cut.withLock { $0 = status }
                }
                usleep(25_000)
            }
            close(descriptor)
        }
        reader.start()
        let session = try PlaybackSession(file: file, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                          logger: logger)
        session.start()
        let result = await session.result()
        #expect(cut.withLock { $0 } == 0)
        #expect(result.end == .finished && result.cutShort, "\(result.position) frames played of 160000")
        #expect(result.position < 160_000)

        // Played whole, the same file (now 1 s long) is not cut short.
        let whole = try await play(file, on: try VirtualSpeaker(in: folder.url, name: "second"))
        #expect(whole.1.end == .finished && !whole.1.cutShort && whole.1.framesPlayed == 16_000)
    }

    @Test func toEndsWhereAsked() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let (session, result) = try await play(try wav(Self.samples, in: folder), on: speaker, from: 0.5, to: 2.0)
        #expect(result.end == .finished && result.framesPlayed == 24_000)
        #expect(speaker.written() == Array(Self.samples[8000..<32_000]))
        #expect(session.status().endSeconds == 2.0)
    }

    @Test func aStereoWAVPlaysBothChannelsUntouched() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let stereo = (0..<96_000).map { Int16(truncatingIfNeeded: $0 &* 31 &- $0 % 7) }
        let (session, result) = try await play(try wav(stereo, rate: 48000, channels: 2, in: folder), on: speaker, from: 0.25)
        #expect(result.end == .finished)
        #expect(session.deviceFormat.channels == 2 && session.deviceFormat.sampleRate == 48000)
        #expect(speaker.written() == Array(stereo[24_000...]))
    }

    @Test(arguments: [true, false])
    func playbackNobodySteersWritesWholeBuffersAndEveryFrameArrives(mapped: Bool) async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        // A WAV plays from its mapped bytes, a FLAC through the decoder's read-ahead.
        var file = try wav(Self.samples, in: folder)
        if !mapped {
            let flac = folder.url.appendingPathComponent("take.flac")
            _ = try runTool("sox", [file.path, flac.path])
            file = flac
        }
        let session = try PlaybackSession(file: file, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                          from: 0.3, to: 2.7, interactive: false, logger: logger)
        session.start()
        let result = await session.result()
        #expect(result.end == .finished && result.framesPlayed == 38_400)
        #expect(session.deviceFormat.periodFrames == 2000 && session.deviceFormat.bufferFrames == 8000, "aplay's geometry")
        #expect(speaker.written() == Array(Self.samples[4800..<43_200]))
    }

    @Test func aJumpWhilePausedPlaysFromThere() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let session = try PlaybackSession(file: try wav(Self.samples, in: folder), deviceName: speaker.name,
                                          configuration: ALSAConfiguration(text: speaker.configText), logger: logger)
        session.pause()
        session.start()
        session.seek(toSeconds: 2.0)
        try await Task.sleep(for: .milliseconds(100))
        #expect(speaker.bytesWritten() == 0)
        #expect(session.status().seconds == 2.0 && session.status().isPaused)
        session.skip(seconds: -0.5)
        session.togglePause()
        let result = await session.result()
        #expect(result.end == .finished)
        #expect(speaker.written() == Array(Self.samples[24_000...]))
    }

    @Test func theLevelOfWhatIsHeardIsMeasured() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let tone = folder.url.appendingPathComponent("tone.wav")
        _ = try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", tone.path, "synth", "1", "sine", "440", "vol", "0.5"])
        let (session, _) = try await play(tone, on: speaker, measuresLevel: true)
        let status = session.status()
        #expect(abs(status.peakDBFS - -6.0) < 0.3, "peak \(status.peakDBFS)")
        #expect(abs(status.rmsDBFS - -9.0) < 0.3, "rms \(status.rmsDBFS)")
    }

    // MARK: - a WAV's own bytes

    /// Sets the data chunk's declared size of a WAV sox wrote (44-byte header) to `bytes`.
    private func declare(_ bytes: UInt32, in url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: withUnsafeBytes(of: bytes.littleEndian) { Data($0) })
    }

    @Test func aWAVWhoseHeaderDeclaresNoAudioPlaysEveryFrameOnDisk() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let url = try wav(Self.samples, in: folder)
        try declare(0, in: url)
        let (_, result) = try await play(url, on: speaker, from: 0.5)
        #expect(result.end == .finished)
        #expect(speaker.written() == Array(Self.samples[8000...]))
    }

    @Test func aRecordingStillBeingWrittenPlaysWhatIsOnDiskBeyondItsHeader() async throws {
        let folder = try TemporaryFolder()
        let url = try wav(Self.samples, in: folder)
        try declare(32_000, in: url)  // the header a second behind, as while recording
        let settled = try VirtualSpeaker(in: folder.url, name: "settled")
        _ = try await play(url, on: settled)
        #expect(settled.written() == Array(Self.samples[..<16_000]))
        let growing = try VirtualSpeaker(in: folder.url, name: "growing")
        let session = try PlaybackSession(file: url, deviceName: growing.name, configuration: ALSAConfiguration(text: growing.configText),
                                          growing: true, logger: logger)
        session.start()
        _ = await session.result()
        #expect(growing.written() == Self.samples)
    }

    @Test func aWAVCutShortWhilePlayingEndsWithoutACrash() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let long: [Int16] = (0..<320_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }
        let url = try wav(long, in: folder)
        let session = try PlaybackSession(file: url, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                          logger: logger)
        session.pause()
        session.start()
        // Cut to 1 s of audio (plus the header) while the file is mapped and not yet played.
        #expect(truncate(url.path, 44 + 32_000) == 0)
        session.resume()
        let result = await session.result()
        #expect(result.end == .finished)
        let written = speaker.written()
        // What was left plays as it is; past the cut there is at most a period of silence.
        #expect(Array(written.prefix(16_000)) == Array(long[..<16_000]))
        #expect(written.count < 16_000 + 8_192 && written.dropFirst(16_000).allSatisfy { $0 == 0 })
    }

    /// A WAV of `samples` with the `fmt ` chunk's body `format` and `padding` bytes of a LIST
    /// chunk before the audio, written byte by byte (sox writes neither).
    private func wav(_ samples: [Int16], format: [UInt8], padding: Int = 0, in folder: TemporaryFolder) throws -> URL {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let audio = samples.withUnsafeBytes { Array($0) }
        var chunks = Array("WAVE".utf8) + Array("fmt ".utf8) + le(UInt32(format.count)) + format
        if padding > 0 { chunks += Array("LIST".utf8) + le(UInt32(padding)) + [UInt8](repeating: 0x20, count: padding) }
        chunks += Array("data".utf8) + le(UInt32(audio.count)) + audio
        let url = folder.url.appendingPathComponent("made.wav")
        try Data(Array("RIFF".utf8) + le(UInt32(chunks.count)) + chunks).write(to: url)
        return url
    }

    /// A `fmt ` body: `tag`, `rate` (16 kHz), `channels`, 16 bits; WAVE_FORMAT_EXTENSIBLE (0xFFFE) adds
    /// its extension with `subformat` as the GUID's tag.
    private func fmt(tag: UInt16 = 1, channels: UInt16 = 1, bits: UInt16 = 16, subformat: UInt16 = 1, rate: UInt32 = 16000) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let align = channels * bits / 8
        var body = le(tag) + le(channels) + le(rate) + le(rate &* UInt32(align)) + le(align) + le(bits)
        if tag == 0xFFFE {
            body += le(UInt16(22)) + le(bits) + le(UInt32(channels == 1 ? 4 : 3)) + le(subformat)
                + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        return body
    }

    @Test func aWAVWhoseAudioStartsPastItsFirst4KBPlaysItsOwnSamples() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let url = try wav(Self.samples, format: fmt(), padding: 10_000, in: folder)
        #expect(MappedPCM(wav: url)?.totalFrames == 48_000, "played from its mapped bytes")
        let (session, result) = try await play(url, on: speaker, from: 1.0)
        #expect(result.end == .finished && !session.isResampled)
        #expect(speaker.written() == Array(Self.samples[16_000...]))
    }

    @Test func anExtensibleWAVOf16BitPCMPlaysItsOwnSamples() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let url = try wav(Self.samples, format: fmt(tag: 0xFFFE), in: folder)
        #expect(MappedPCM(wav: url)?.info == AudioFileInfo(frames: 48_000, sampleRate: 16000, channels: 1, format: "wav"))
        let (session, result) = try await play(url, on: speaker)
        #expect(result.end == .finished && session.fileInfo?.format == "wav")
        #expect(speaker.written() == Self.samples)
    }

    @Test func aWAVDeclaringMoreAudioThanItsBytesHoldIsRefusedAsADecoderWould() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        // 48,000 samples at 1 Hz: 13 hours in 96 KB, past what any real file packs into its bytes.
        let url = try wav(Self.samples, format: fmt(rate: 1), in: folder)
        #expect(MappedPCM(wav: url) != nil, "a header the mapping takes")
        #expect { try PlaybackSession(file: url, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                      logger: logger) } throws: { error in
            (error as? AudioFileProblem)?.kind == .implausibleLength && "\(error)".contains("in 96044 bytes")
        }
        #expect(speaker.bytesWritten() == 0)
    }

    @Test func onlyA16BitPCMHeaderReadsAsSamplesToPlayAsTheyAre() throws {
        func layout(_ format: [UInt8]) throws -> WAVLayout {
            let folder = try TemporaryFolder()
            return try WAVLayout.parse(Array(try Data(contentsOf: try wav([0, 0], format: format, in: folder)).prefix(200)))
        }
        #expect(try layout(fmt()).isPCM16)
        #expect(try layout(fmt(channels: 2)).isPCM16)
        #expect(try layout(fmt(tag: 0xFFFE)).isPCM16)
        #expect(try !layout(fmt(tag: 0xFFFE, bits: 32, subformat: 3)).isPCM16, "extensible float")
        #expect(try !layout(fmt(tag: 3, bits: 32)).isPCM16, "IEEE float")
        #expect(try !layout(fmt(bits: 24)).isPCM16, "24-bit PCM")
        #expect(try !layout(fmt(bits: 8)).isPCM16, "8-bit PCM")
        #expect(try !layout(fmt(tag: 6, bits: 8)).isPCM16, "A-law")
    }

    @Test func aWAVTheDeviceCannotTakeAsItIsIsDecodedAfterAll() async throws {
        let folder = try TemporaryFolder()
        // 24-bit samples: libsndfile hands over their top 16 bits.
        let deep = try VirtualSpeaker(in: folder.url, name: "deep")
        let url24 = folder.url.appendingPathComponent("deep.wav")
        _ = try runTool("sox", [try wav(Self.samples, in: folder).path, "-b", "24", url24.path])
        #expect(MappedPCM(wav: url24) == nil)
        let (session24, result24) = try await play(url24, on: deep)
        #expect(result24.end == .finished && !session24.isResampled)
        #expect(deep.written() == Self.samples)
        // A 48 kHz WAV on a card fixed at 16 kHz: converted, as a FLAC would be.
        let speaker = try VirtualSpeaker(in: folder.url, fixedRate: 16000)
        let (session, result) = try await play(try tone("tone48.wav", rate: 48000, seconds: 2, in: folder), on: speaker)
        #expect(result.end == .finished && session.isResampled && session.deviceFormat.sampleRate == 16000)
        let written = speaker.written()
        #expect(abs(written.count - 32_000) <= 1, "\(written.count) samples")
        let distance = distanceFromTheSine(Array(written.prefix(31_800)), start: 0)
        #expect(distance.rms < 0.0005, "\(distance)")
    }

    @Test func aPipeInAWAVsPlaceIsRefusedWithoutBlocking() throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let fifo = folder.url.appendingPathComponent("take.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(MappedPCM(wav: fifo) == nil)
        #expect(throws: AudioFileProblem.self) {
            try PlaybackSession(file: fifo, deviceName: speaker.name, configuration: ALSAConfiguration(text: speaker.configText),
                                logger: logger)
        }
    }

    // MARK: - resampled

    /// A 440 Hz sine at half scale, `seconds` long, made by sox at `rate`.
    private func tone(_ name: String, rate: Int, seconds: Int, in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        _ = try runTool("sox", ["-n", "-r", "\(rate)", "-c", "1", "-b", "16", url.path, "synth", "\(seconds)", "sine", "440", "vol", "0.5"])
        return url
    }

    /// How far `written` (16 kHz) is from the sine itself from `start` seconds on: RMS and largest
    /// difference, full scale 1.
    private func distanceFromTheSine(_ written: [Int16], start: Double) -> (rms: Double, max: Double) {
        var sum = 0.0, largest = 0.0
        for (index, sample) in written.enumerated() {
            let time = start + Double(index) / 16000
            let difference = Double(sample) / 32768 - 0.5 * sin(2 * Double.pi * 440 * time)
            sum += difference * difference
            largest = max(largest, abs(difference))
        }
        return ((sum / Double(max(written.count, 1))).squareRoot(), largest)
    }

    @Test func a48kHzFLACOnA16kHzDeviceIsResampledByLibsamplerate() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url, fixedRate: 16000)
        let flac = try tone("tone.flac", rate: 48000, seconds: 4, in: folder)
        let (session, result) = try await play(flac, on: speaker, from: 1.5)
        #expect(result.end == .finished)
        #expect(session.isResampled && session.deviceFormat.sampleRate == 16000)
        let written = speaker.written()
        #expect(abs(written.count - 40_000) <= 1, "\(written.count) samples")
        // Away from the file's last milliseconds (where the filter runs out of input), the
        // converted samples follow the sine to within a few 16-bit steps.
        let distance = distanceFromTheSine(Array(written.prefix(39_800)), start: 1.5)
        #expect(distance.rms < 0.0005 && distance.max < 0.002, "\(distance)")
    }

    @Test func aBrowsersWebMOnA16kHzDeviceIsDecodedAndResampled() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url, fixedRate: 16000)
        let wav = try tone("tone.wav", rate: 48000, seconds: 4, in: folder)
        // As a browser's MediaRecorder writes it: Opus at 48 kHz in a live WebM that states no length.
        let webm = folder.url.appendingPathComponent("answer.webm")
        _ = try runTool("ffmpeg", ["-v", "error", "-i", wav.path, "-c:a", "libopus", "-b:a", "96k", "-f", "webm", "-live", "1", webm.path])
        let (session, result) = try await play(webm, on: speaker, from: 1.0)
        #expect(result.end == .finished)
        #expect(session.isResampled && session.deviceFormat.sampleRate == 16000)
        let written = speaker.written()
        #expect(abs(written.count - 48_000) <= 16, "\(written.count) samples")
        // Opus is lossy: the error is the codec's, far below the tone (a shifted or missing
        // block would be as loud as the tone itself).
        let distance = distanceFromTheSine(Array(written.prefix(47_000)), start: 1.0)
        #expect(distance.rms < 0.01, "\(distance)")
        #expect(session.status().totalSeconds.map { abs($0 - 4.0) < 0.01 } == true)
    }
}
