import Foundation

/// A microphone made of ALSA's `file` PCM plugin: capture returns the bytes of a raw file (or
/// of a FIFO a test feeds at real time), through the same ALSA calls a sound card would use.
/// See FACTS.md: a regular file is not paced and is byte-exact; ask for no more audio than it
/// holds (past its end ALSA returns stale data). A FIFO paces capture to its feeder.
public struct VirtualMicrophone: Sendable {
    /// The PCM name to pass to `--device`.
    public let name: String
    /// The raw S16_LE interleaved audio (or FIFO) the plugin reads.
    public let infile: URL
    /// A configuration file defining only this PCM.
    public let configFile: URL

    /// The PCM's definition, for `ALSAConfiguration(text:)` (in-process `snd_pcm_open_lconf`).
    /// The slave is defined inline: a local configuration cannot see ALSA's global `null`.
    public var configText: String {
        """
        pcm.\(name) {
            type file
            slave { pcm { type null } }
            file "/dev/null"
            infile "\(infile.path)"
            format "raw"
            hint { show on description "voicejournal test microphone" }
        }
        """
    }

    /// Environment that lets any ALSA program (voicejournal, arecord) open the PCM by name.
    public var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configFile.path)"]
    }

    /// A microphone that plays `samples` (interleaved 16-bit), unpaced.
    public init(in folder: URL, name: String = "testmic", samples: [Int16]) throws {
        let infile = folder.appendingPathComponent("\(name).raw")
        try samples.withUnsafeBytes { try Data($0).write(to: infile) }
        try self.init(in: folder, name: name, infile: infile)
    }

    /// A paced microphone: its infile is a FIFO; start a `PacedFeeder` on it before (or right
    /// after) starting the recorder, since opening the PCM waits for the FIFO's writer.
    public static func paced(in folder: URL, name: String = "testmic") throws -> VirtualMicrophone {
        let fifo = folder.appendingPathComponent("\(name).fifo")
        guard mkfifo(fifo.path, 0o600) == 0 else {
            throw ToolFailure(command: "mkfifo \(fifo.path)", status: errno, stderr: String(cString: strerror(errno)))
        }
        return try VirtualMicrophone(in: folder, name: name, infile: fifo)
    }

    private init(in folder: URL, name: String, infile: URL) throws {
        self.name = name
        self.infile = infile
        configFile = folder.appendingPathComponent("\(name).asoundrc")
        try configText.write(to: configFile, atomically: true, encoding: .utf8)
    }
}

/// Feeds audio into a paced microphone's FIFO at real time (a small Python process, so a
/// recorder killed mid-way costs the test nothing but a broken pipe). Chunks are written
/// whole (≤ PIPE_BUF) and are a multiple of the recorder's 50 ms reads, so every read the
/// plugin makes is complete and the captured bytes match the fed ones. Feed more audio than
/// the test needs: the feeder ends when the recorder closes the FIFO, and a FIFO that runs
/// dry reads as an endless, unpaced stream of stale data.
public final class PacedFeeder: @unchecked Sendable {
    // @unchecked: used from the test's task only.
    private let process = Process()
    private let output = Pipe()

    private static let script = """
        import os, sys, time, signal
        path, source, rate, chunk = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        # Children inherit the test runner's blocked signals; this one must hear SIGTERM/SIGALRM.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGALRM, signal.SIGINT])
        def give_up(*_):
            raise KeyboardInterrupt
        signal.signal(signal.SIGTERM, give_up)
        signal.signal(signal.SIGALRM, give_up)
        signal.alarm(120)
        data = open(source, 'rb').read()
        written = 0
        try:
            fd = os.open(path, os.O_WRONLY)
            start = time.monotonic()
            while written < len(data):
                delay = start + written / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                written += os.write(fd, data[written:written + chunk])
        except (BrokenPipeError, KeyboardInterrupt):
            pass
        print(written, flush=True)
        """

    /// Starts feeding `samples` (interleaved) at `sampleRate` frames per second, 100 ms per write.
    public init(microphone: VirtualMicrophone, samples: [Int16], sampleRate: Int, channels: Int) throws {
        let source = microphone.infile.deletingLastPathComponent()
            .appendingPathComponent("\(microphone.name)-feed-\(UUID().uuidString.prefix(6)).raw")
        try samples.withUnsafeBytes { try Data($0).write(to: source) }
        let bytesPerSecond = sampleRate * channels * 2
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, microphone.infile.path, source.path,
                             "\(bytesPerSecond)", "\(bytesPerSecond / 10)"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the feeder to end (all written, or the reader gone) and returns the bytes
    /// it managed to write.
    public func finish() -> Int {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Stops the feeder early (it still reports what it wrote to `finish()`).
    public func stop() {
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }
}
