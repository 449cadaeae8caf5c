import VoiceJournalAudio
import Foundation
import Logging
import Testing
import VoiceJournalTestSupport

/// Playback through real ALSA: the `file` plugin writing what it is given to a raw file,
/// opened in-process with `snd_pcm_open_lconf` so parallel tests never share configuration.
@Suite struct PlaybackTests {
    /// Three seconds of 16 kHz mono that never repeats within a period, so a dropped,
    /// doubled or shifted block cannot go unnoticed.
    private static let recording: [Int16] = (0..<48_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }

    private func open(_ speaker: VirtualSpeaker, rate: Int = 16000, channels: Int = 1) throws -> PlaybackDevice {
        try PlaybackDevice(name: speaker.name, format: PlaybackFormat(sampleRate: rate, channels: channels),
                           configuration: ALSAConfiguration(text: speaker.configText))
    }

    private func session(_ device: PlaybackDevice, from startFrame: Int64 = 0) -> PlaybackSession {
        PlaybackSession(device: device, samples: Self.recording, startFrame: startFrame,
                        logger: Logger(label: "test.playback"))
    }

    @Test func writesExactlyTheSamplesPlayedAtTheDevicesRate() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let device = try open(speaker)
        #expect(device.format.sampleRate == 16000 && device.format.channels == 1)
        let playback = session(device)
        playback.start()
        let result = await playback.result()
        #expect(result.end == .finished)
        #expect(result.framesPlayed == 48_000 && result.position == 48_000)
        #expect(result.underruns == 0)
        #expect(speaker.written() == Self.recording)
    }

    @Test(arguments: [1, 16_000, 31_999, 47_999])
    func startingFromAnOffsetPlaysExactlyTheRest(startFrame: Int) async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let playback = session(try open(speaker), from: Int64(startFrame))
        playback.start()
        let result = await playback.result()
        #expect(result.end == .finished)
        #expect(result.framesPlayed == Int64(48_000 - startFrame))
        #expect(speaker.written() == Array(Self.recording[startFrame...]))
    }

    @Test func writesNothingWhilePausedAndTheRestAfterResume() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let playback = session(try open(speaker), from: 8000)
        playback.pause()
        playback.start()
        // The speaker is unpaced: unpaused, all 2.5 s would be written in milliseconds.
        try await Task.sleep(for: .milliseconds(50))
        let before = (speaker.bytesWritten(), playback.status())
        try await Task.sleep(for: .milliseconds(300))
        #expect(speaker.bytesWritten() == before.0)
        #expect(before.0 == 0)
        let status = playback.status()
        #expect(status.position == 8000 && status.totalFrames == 48_000 && status.isPaused)
        #expect(before.1 == playback.status())
        #expect(!playback.isFinished)
        playback.resume()
        let result = await playback.result()
        #expect(result.end == .finished && result.position == 48_000)
        #expect(speaker.written() == Array(Self.recording[8000...]))
    }

    @Test func pausingMidwayWritesNothingUntilResumed() async throws {
        // Paced by the test: the speaker's file is a FIFO this test reads, so writes block
        // until it reads, the way a sound card blocks until it has played.
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        #expect(mkfifo(speaker.outfile.path, 0o600) == 0)
        let fifo = Glibc.open(speaker.outfile.path, O_RDONLY | O_NONBLOCK)
        #expect(fifo >= 0)
        defer { Glibc.close(fifo) }
        let samples: [Int16] = (0..<320_000).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 1600) }
        let playback = PlaybackSession(device: try open(speaker), samples: samples, logger: Logger(label: "test.playback"))
        let total = samples.count * 2
        var heard: [UInt8] = []
        playback.start()
        read(fifo, into: &heard, upTo: 64_000, quietMilliseconds: 5000)
        #expect(heard.count == 64_000)
        playback.pause()
        read(fifo, into: &heard, upTo: total, quietMilliseconds: 200)  // the write in progress ends
        let atPause = (heard.count, playback.status().position)
        read(fifo, into: &heard, upTo: total, quietMilliseconds: 300)
        #expect(heard.count == atPause.0, "written while paused")
        #expect(playback.status().position == atPause.1)
        #expect(atPause.0 < total / 2)
        playback.resume()
        read(fifo, into: &heard, upTo: total, quietMilliseconds: 5000)
        let result = await playback.result()
        #expect(result.end == .finished && result.position == 320_000)
        #expect(heard.count == total)
        #expect(heard == samples.withUnsafeBytes { Array($0) })
    }

    /// Reads what arrives on `fifo` until `count` bytes are in or nothing came for `quietMilliseconds`.
    private func read(_ fifo: Int32, into data: inout [UInt8], upTo count: Int, quietMilliseconds: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while data.count < count {
            var ready = pollfd(fd: fifo, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, quietMilliseconds) > 0 else { return }
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fifo, $0.baseAddress, min($0.count, count - data.count)) }
            guard got > 0 else { return }
            data += chunk[0..<got]
        }
    }

    @Test func stopEndsPlaybackWhilePaused() async throws {
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        let playback = session(try open(speaker))
        playback.pause()
        playback.start()
        playback.stop()
        let result = await playback.result()
        #expect(result.end == .stopped && result.framesPlayed == 0)
        #expect(speaker.bytesWritten() == 0)
    }

    @Test func unknownDeviceThrowsWithALSAsWords() throws {
        let error = #expect(throws: ALSAError.self) {
            try PlaybackDevice(name: "no-such-speaker", format: PlaybackFormat())
        }
        #expect(error?.function == "snd_pcm_open")
        #expect(error?.isUnknownDevice == true)
        #expect(error?.direction == .playback)
        #expect(error?.description.contains("cannot play to 'no-such-speaker'") == true)
        #expect(error?.description.contains("No such file or directory") == true)
        #expect(error?.description.contains("aplay -L") == true)
    }

    @Test func reportsTheFormatTheDeviceTook() throws {
        let folder = try TemporaryFolder()
        let device = try open(VirtualSpeaker(in: folder.url), rate: 48000, channels: 2)
        #expect(device.format.sampleRate == 48000 && device.format.channels == 2)
        #expect(device.format.periodFrames <= device.format.bufferFrames)
    }
}
