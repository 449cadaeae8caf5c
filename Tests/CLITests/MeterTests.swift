import Foundation
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct MeterTests {
    @Test func fileWaveformShowsALoudHalfThenAQuietHalf() throws {
        let folder = try TemporaryFolder()
        let raw = folder.path("halves.raw"), flac = folder.path("halves.flac")
        let samples = CaptureFixtures.sine(sampleRate: 16000, seconds: 1, dbfs: -3, frequency: 300)
            + CaptureFixtures.sine(sampleRate: 16000, seconds: 1, dbfs: -30, frequency: 300)
        try samples.withUnsafeBytes { try Data($0).write(to: raw) }
        try runTool("sox", ["-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", raw.path, flac.path])

        let result = try VoicejournalBinary(home: folder.path("home")).run(["meter", flac.path, "--width", "40", "--height", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 12)  // header, 8 rows, rule, labels, final newline
        #expect(lines[0].contains("halves.flac") && lines[0].contains("flac · 16000 Hz · mono · 00:02.0"))
        #expect(lines[0].contains("peak -3.0 dBFS"))
        let grid = lines[1...8].map(Array.init)
        #expect(grid.allSatisfy { $0.count == 40 })
        let heights = (0..<40).map { column in grid.filter { $0[column] != " " }.count }
        // On the -48…0 dBFS scale, 12 dB a row out from the centre: -3 dBFS reaches the edge,
        // -30 the second row (on a linear scale it lit only the centre rows).
        let loud = heights[0..<20], quiet = heights[20..<40]
        #expect(loud.allSatisfy { $0 == 8 } && quiet.allSatisfy { $0 == 4 }, "\(heights)")
        #expect(lines[9].count == 40 && lines[9].contains("┬"))
        #expect(lines[10].hasPrefix("0s") && lines[10].contains("1s") && lines[10].hasSuffix("2s"))
    }

    @Test func anM4AFileLibsndfileCannotReadIsDrawnThroughFFmpeg() throws {
        let folder = try TemporaryFolder()
        let wav = folder.path("halves.wav"), m4a = folder.path("voice memo.m4a")
        // 1 s loud then 1 s quiet, stereo at 44.1 kHz, as a phone's AAC voice memo.
        try runTool("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "1", "sine", "300", "vol", "0.7",
                            ":", "synth", "1", "sine", "300", "vol", "0.03"])
        try runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", wav.path, "-c:a", "aac", m4a.path])

        let result = try VoicejournalBinary(home: folder.path("home")).run(["meter", m4a.path, "--width", "40", "--height", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)  // FFmpeg's own log lines stay silent
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 12)
        #expect(lines[0].hasPrefix("voice memo.m4a  m4a · 44100 Hz · stereo · 00:02.0 · peak "), "\(lines[0])")
        // 0.7 is -3.1 dBFS; AAC overshoots a little where the level drops.
        let peak = lines[0].split(separator: " ").firstIndex(of: "peak").flatMap { Double(lines[0].split(separator: " ")[$0 + 1]) }
        #expect(peak.map { abs($0 + 3.1) < 0.5 } == true, "\(lines[0])")
        let grid = lines[1...8].map(Array.init)
        let heights = (0..<40).map { column in grid.filter { $0[column] != " " }.count }
        // 0.03 is -30.5 dBFS: the second row out from the centre.
        #expect(heights[1..<19].allSatisfy { $0 == 8 } && heights[21..<39].allSatisfy { $0 == 4 }, "\(heights)")
        #expect(lines[10].hasPrefix("0s") && lines[10].hasSuffix("2s"))
    }

    @Test func fileThatIsNotAudioGetsOneLineAndExit1() throws {
        let folder = try TemporaryFolder()
        let notes = folder.path("notes.wav")
        try Data("dear diary".utf8).write(to: notes)
        let result = try VoicejournalBinary(home: folder.path("home")).run(["meter", notes.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("voicejournal: cannot draw \(notes.path): not audio or damaged")
                && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aPipeOrADeviceIsRefusedWithOneLineBeforeItIsOpened() throws {
        let folder = try TemporaryFolder()
        // Reading either would never end: `timeout` ends the test if one is opened.
        let binary = VoicejournalBinary(home: folder.path("home"), launcher: ["timeout", "120"])
        let fifo = folder.path("stream.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try binary.run(["meter", fifo.path])
        #expect(piped.status == 1)
        #expect(piped.stderr == "voicejournal: \(fifo.path): not a regular file (a pipe)\n")
        let noise = folder.path("noise.mp3")
        try FileManager.default.createSymbolicLink(atPath: noise.path, withDestinationPath: "/dev/urandom")
        let device = try binary.run(["meter", noise.path])
        #expect(device.status == 1)
        #expect(device.stderr == "voicejournal: \(noise.path): not a regular file (a character device)\n")
    }

    @Test func liveMeterPrintsOneLinePerSecondAndSavesNothing() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(
            in: folder.url, samples: CaptureFixtures.sine(sampleRate: 16000, seconds: 1, dbfs: -20)
                + CaptureFixtures.sine(sampleRate: 16000, seconds: 1, dbfs: -40))
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let result = try binary.run(["meter", "--device", microphone.name, "--duration", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n") == [
            "00:01.0 peak -20.0 dBFS rms -23.0 dBFS",
            "00:02.0 peak -40.0 dBFS rms -43.0 dBFS",
        ])
        #expect(!FileManager.default.fileExists(atPath: binary.home.path))
    }

    @Test func liveMeterWithAnUnknownDeviceExits3() throws {
        let folder = try TemporaryFolder()
        let result = try VoicejournalBinary(home: folder.path("home")).run(["meter", "--device", "nowhere", "--duration", "1"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("'nowhere': snd_pcm_open failed") && result.stderr.contains("voicejournal devices"))
    }

    @Test func fileAndLiveOptionsDoNotMix() throws {
        let folder = try TemporaryFolder()
        let result = try VoicejournalBinary(home: folder.path("home")).run(["meter", "x.wav", "--duration", "3"])
        #expect(result.status == 2)
    }
}
