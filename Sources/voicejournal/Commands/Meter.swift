import ArgumentParser
import Audio
import Foundation
import Logging
import Settings
import Terminal

/// `meter` — the live input level (nothing saved), or an audio file's waveform.
struct Meter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "Show the live input level, or a file's waveform",
        discussion: """
            Without FILE: the level of --device until Enter, Ctrl-C or --duration; nothing is saved. \
            With FILE (any audio format libsndfile or FFmpeg decodes: WAV, FLAC, MP3, M4A, WebM, ...): its waveform, peak and RMS envelopes over a time axis.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("An audio file to draw.", valueName: "file"))
    var file: String?

    @OptionGroup(title: "Live input (without FILE)") var input: InputOptions

    @Option(help: ArgumentHelp("Stop the live meter after this many seconds.", valueName: "sec"))
    var duration: Double?

    @Option(help: ArgumentHelp("Waveform width in columns (default: the terminal's).", valueName: "n"))
    var width: Int?

    @Option(help: ArgumentHelp("Waveform height in rows.", valueName: "n"))
    var height: Int?

    func validate() throws {
        if file != nil, duration != nil { throw ValidationError("--duration is for the live meter; with FILE the whole file is drawn") }
        if file == nil, width != nil || height != nil { throw ValidationError("--width and --height size a FILE's waveform") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be more than 0 seconds") }
        if let width, width < 10 { throw ValidationError("--width must be at least 10 columns") }
        if let height, height < 2 { throw ValidationError("--height must be at least 2 rows") }
    }

    func run() async throws {
        if let file { try drawWaveform(of: URL(fileURLWithPath: file)) } else { try await live() }
    }

    private func drawWaveform(of url: URL) throws {
        let terminal = TerminalInfo.detect(fileDescriptor: STDOUT_FILENO)
        let columns = width ?? terminal.width
        let rows = height ?? 12
        let summary: WaveformSummary
        do {
            summary = try WaveformSummary.make(of: url, columns: columns)
        } catch let error as SoundFileError {
            throw CLIError.failure("cannot draw \(url.path): \(error.reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let info = summary.info
        let layout = info.channels == 1 ? "mono" : info.channels == 2 ? "stereo" : "\(info.channels) channels"
        print("\(TerminalText.escaped(url.lastPathComponent))  \(info.format) · \(info.sampleRate) Hz · \(layout) · "
              + "\(MeterLine.clock(info.durationSeconds)) · peak \(MeterLine.dbfs(summary.levels.peakDBFS)) dBFS · "
              + "rms \(MeterLine.dbfs(summary.levels.rmsDBFS)) dBFS")
        let envelope = summary.columns.map { Waveform.Column(peak: $0.peak, rms: $0.rms) }
        for line in Waveform.render(envelope, height: rows, color: terminal.color) { print(line) }
        for line in Waveform.timeAxis(width: columns, durationSeconds: info.durationSeconds) { print(line) }
    }

    private func live() async throws {
        var input = input
        _ = try input.resolve(Settings.Flags(), with: global)
        // A device ALSA does not know is a configuration error (exit 3): ErrorReport says so.
        let captureDevice = try CaptureDevice(name: input.device, format: input.format)
        let limits = CaptureLimits(maxFrames: duration.map { captureDevice.format.frames(seconds: $0) },
                                   headerUpdateFrames: Int64(captureDevice.format.sampleRate))
        let session = CaptureSession(device: captureDevice, writer: nil, limits: limits,
                                     logger: Logger(label: "voicejournal.meter"))
        let stopSignals = StopSignals { session.stop($0) }
        defer { stopSignals.restore() }
        session.start()
        await LiveMeter(showing: true, hint: "Level of \(input.device) (nothing is saved)").run(session)
        let result = await session.result()
        // A device that fails mid-way is failed work (exit 1): ErrorReport says so.
        if let error = result.error { throw error }
        if case .interrupted = result.stopReason { throw ExitCode(CLIError.interrupted) }
    }
}

/// Draws a running capture's level on stderr until it ends: on a terminal one line redrawn
/// about 20 times a second, elsewhere one plain line per second of audio.
struct LiveMeter {
    let showing: Bool
    let hint: String

    init(showing: Bool, hint: String) {
        self.showing = showing
        self.hint = hint
    }

    /// Shows the meter until the capture ends; `below` gives lines (escaped) to show under it
    /// as they come: on a terminal wrapped under the meter line, elsewhere as plain lines.
    func run(_ session: CaptureSession, below: (() -> [String])? = nil) async {
        let terminal = TerminalInfo.detect(fileDescriptor: STDERR_FILENO)
        let stderr = FileHandle.standardError
        if showing, terminal.isTTY {
            stderr.write(Data("\(TerminalText.escaped(hint)) — press Enter to stop\n".utf8))
        }
        var area = TranscriptArea()
        while true {
            let finished = session.isFinished
            let extra = below?() ?? []
            if showing, terminal.isTTY {
                let status = session.status()
                let line = MeterLine.render(
                    MeterLine.State(seconds: status.seconds, peakDBFS: status.latest.peakDBFS, rmsDBFS: status.latest.rmsDBFS,
                                    holdDBFS: status.holdDBFS, clipped: status.clippedRecently),
                    width: terminal.width - 1, color: terminal.color)
                let wrapped = extra.flatMap { TranscriptArea.wrap($0, width: terminal.width - 1) }
                stderr.write(Data((area.append(wrapped) + ANSI.redrawLine + line + (finished ? area.leave() : "")).utf8))
            } else if !extra.isEmpty {
                stderr.write(Data(extra.map { $0 + "\n" }.joined().utf8))
            }
            if showing, !terminal.isTTY {
                let lines = session.takeSecondSummaries().map {
                    MeterLine.plain(seconds: Double($0.second), peakDBFS: $0.level.peakDBFS,
                                    rmsDBFS: $0.level.rmsDBFS, clipped: $0.level.clipped) + "\n"
                }
                if !lines.isEmpty { stderr.write(Data(lines.joined().utf8)) }
            }
            if finished { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// Stops a capture on SIGINT/SIGTERM (so the file is still finished properly) and on Enter.
/// End of input is not Enter: with stdin at /dev/null or a closed pipe, only a signal or a
/// limit stops the capture. `restore()` also ends the thread watching for Enter (it waits
/// on stdin and on a pipe of its own, which `restore()` closes).
final class StopSignals {
    private let signals: SignalWatch
    private let wake: (read: Int32, write: Int32)

    init(stop: @escaping @Sendable (StopReason) -> Void) {
        signals = SignalWatch { stop(.interrupted(signal: $0)) }
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wake = (ends[0], ends[1])
        let wakeRead = ends[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            var watched = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            defer { if wakeRead >= 0 { close(wakeRead) } }
            while true {
                let ready = poll(&watched, nfds_t(watched.count), -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, watched[1].revents == 0 else { return }
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                if buffer[0..<count].contains(UInt8(ascii: "\n")) {
                    stop(.requested)
                    return
                }
            }
        }
        reader.name = "voicejournal enter key"
        reader.start()
    }

    /// Gives SIGINT and SIGTERM back their default meaning and stops watching for Enter.
    func restore() {
        signals.cancel()
        if wake.write >= 0 { close(wake.write) }
    }
}
