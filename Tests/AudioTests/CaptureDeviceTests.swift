import VoiceJournalAudio
import Foundation
import Logging
import Testing
import VoiceJournalTestSupport

/// Capture through real ALSA: the `file` plugin reading a raw file the test wrote, opened
/// in-process with `snd_pcm_open_lconf` so parallel tests never share configuration.
@Suite(.onTestThreads) struct CaptureDeviceTests {
    private func open(_ microphone: VirtualMicrophone, rate: Int, channels: Int) throws -> CaptureDevice {
        try CaptureDevice(name: microphone.name, format: CaptureFormat(sampleRate: rate, channels: channels),
                          configuration: ALSAConfiguration(text: microphone.configText))
    }

    @Test func readsExactlyTheFramesTheMicrophoneHolds() throws {
        let folder = try TemporaryFolder()
        let fed = CaptureFixtures.interleaved(
            CaptureFixtures.sine(sampleRate: 48000, seconds: 0.5, dbfs: -12, frequency: 440),
            (0..<24000).map { Int16(truncatingIfNeeded: $0 * 7) })
        let device = try open(VirtualMicrophone(in: folder.url, samples: fed), rate: 48000, channels: 2)
        #expect(device.format.periodFrames == 4800)  // 100 ms reads, as asked
        #expect(device.format.periodFrames <= device.format.bufferFrames)
        var captured: [Int16] = []
        var block = [Int16](repeating: 0, count: device.format.periodFrames * 2)
        for _ in 0..<5 {
            let frames = try block.withUnsafeMutableBufferPointer { try device.read(into: $0.baseAddress!, frames: device.format.periodFrames) }
            #expect(frames == device.format.periodFrames)
            captured += block
        }
        #expect(captured == fed)
        #expect(device.overruns == 0)
    }

    @Test func unknownDeviceNamesTheCallAndSuggestsDevices() throws {
        let error = #expect(throws: ALSAError.self) {
            try CaptureDevice(name: "no-such-microphone", format: CaptureFormat())
        }
        #expect(error?.function == "snd_pcm_open")
        #expect(error?.isUnknownDevice == true)
        #expect(error?.description.contains("No such file or directory") == true)
        #expect(error?.description.contains("voicejournal devices") == true)
    }

    @Test func missingInfileFailsToOpen() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(in: folder.url, samples: [0, 0])
        try FileManager.default.removeItem(at: microphone.infile)
        #expect(throws: ALSAError.self) { try open(microphone, rate: 16000, channels: 1) }
    }

    @Test func sessionWritesExactlyMaxFramesToAValidWAV() async throws {
        let folder = try TemporaryFolder()
        let fed = CaptureFixtures.sine(sampleRate: 16000, seconds: 2, dbfs: CaptureFixtures.halfScaleDBFS)
        let device = try open(VirtualMicrophone(in: folder.url, samples: fed), rate: 16000, channels: 1)
        let url = folder.path("take.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 16000, channels: 1)
        // Not a whole number of reads: the last read is cut short to stop at exactly this frame.
        let session = CaptureSession(device: device, writer: writer,
                                     limits: CaptureLimits(maxFrames: 24_010, headerUpdateFrames: 4000),
                                     logger: Logger(label: "test.capture"))
        session.start()
        let result = await session.result()
        try writer.close()
        #expect(result.stopReason == .maxDuration)
        #expect(result.frames == 24_010)
        #expect(abs(result.levels.peakDBFS - -6.02) < 0.01 && abs(result.levels.rmsDBFS - -9.03) < 0.01)
        #expect(session.takeSecondSummaries().map(\.second) == [1])
        let wav = try WAVContents(url: url)
        #expect(wav.samples == Array(fed.prefix(24_010)))
        #expect(wav.declaredDataBytes == wav.dataBytesOnDisk)
        #expect((try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func stopRequestEndsAnUnlimitedCapture() async throws {
        let folder = try TemporaryFolder()
        let paced = try VirtualMicrophone.paced(in: folder.url)
        let feeder = try PacedFeeder(microphone: paced, samples: CaptureFixtures.sine(sampleRate: 16000, seconds: 30, dbfs: -20),
                                     sampleRate: 16000, channels: 1)
        let device = try open(paced, rate: 16000, channels: 1)
        let session = CaptureSession(device: device, writer: nil, limits: CaptureLimits(headerUpdateFrames: 4000),
                                     logger: Logger(label: "test.capture"))
        session.start()
        // The stop is asked for from a thread of its own, as a caller's key press would be: a
        // test pool busy with blocking work must not delay it past the end of the feed.
        let stopper = Thread {
            while session.status().frames < 8000 { Thread.sleep(forTimeInterval: 0.02) }
            session.stop(.requested)
        }
        stopper.start()
        let result = await session.result()
        #expect(result.stopReason == .requested)
        feeder.stop()
        let fedFrames = feeder.finish() / 2
        // Capture ended within a read of the request: it never read past what the feeder wrote
        // (give or take the one chunk a SIGTERM-ed feeder may have written without counting it).
        #expect(result.frames >= 8000 && result.frames <= fedFrames + 1600, "frames \(result.frames), fed \(fedFrames)")
    }
}
