import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// `meter` — the live input level (nothing saved), or an audio file's waveform.
struct Meter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meter",
        abstract: "Show the live input level, or a file's waveform",
        discussion: CommandHelp.meter)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("An audio file to draw.", valueName: "file")) var file: String?
    @OptionGroup(title: "Live input (without FILE)") var input: InputOptions
    @Option(help: ArgumentHelp("Stop the live meter after this many seconds.", valueName: "sec")) var duration: Double?
    @Option(help: ArgumentHelp("Waveform width in columns (default: the terminal's).", valueName: "n")) var width: Int?
    @Option(help: ArgumentHelp("Waveform height in rows.", valueName: "n")) var height: Int?

    func validate() throws {
        if file != nil, duration != nil { throw ValidationError("--duration is for the live meter; with FILE the whole file is drawn") }
        if file == nil, width != nil || height != nil { throw ValidationError("--width and --height size a FILE's waveform") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be more than 0 seconds") }
        if let width, width < 10 { throw ValidationError("--width must be at least 10 columns") }
        if let height, height < 2 { throw ValidationError("--height must be at least 2 rows") }
    }

    func run() async throws {
        guard let file else { return try await live() }
        let url = URL(fileURLWithPath: file), terminal = TerminalInfo.detect(fileDescriptor: STDOUT_FILENO)
        let columns = width ?? terminal.width
        let page: [String]
        do {
            page = try Waveform.page(of: url, width: columns, height: height ?? 12, color: terminal.color)
        } catch let error as SoundFileError {
            throw CLIError.failure("cannot draw \(url.path): \(error.reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        for line in page { print(line) }
    }

    private func live() async throws {
        var input = input
        _ = try input.resolve(Settings.Flags(), with: global)
        // An unknown device is a configuration error (exit 3), a failing one failed work (exit 1).
        let result = try await withMeter(showing: true, hint: { [input] _ in "Level of \(input.device) (nothing is saved)" }) { stop, progress in
            try await Recorder.listen(device: input.device, format: input.format, seconds: duration, stop: stop,
                                      logger: Logger(label: "voicejournal.meter"), progress: progress)
        }
        if let error = result.error { throw error }
        if case .interrupted = result.stopReason { throw ExitCode(.interrupted) }
    }
}

/// `StopButton.withMeter`, drawing on stderr.
func withMeter<T>(showing: Bool, hint: @escaping (URL?) -> String, saved: @escaping (RecordingOutcome) -> Void = { _ in },
                  _ work: (StopButton, (TakeProgress) -> Void) async throws -> T) async throws -> T {
    try await StopButton.withMeter(showing: showing, hint: hint, saved: saved, write: { FileHandle.standardError.write(Data($0.utf8)) }, work)
}
