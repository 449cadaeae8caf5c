import ArgumentParser
import Audio
import Foundation
import Store
import Terminal

extension EntryCommand {
    /// `voicejournal entry show ID [--original]`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one entry in full: text or timed transcript, mood, theme, recording and waveform.",
            discussion: "--original shows what a corrected entry said before its first correction.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The entry's id (see 'entry list').") var id: Int64
        @Flag(help: "Show the text as it was before it was corrected.") var original = false

        func run() async throws {
            let view = try global.openStoreForReading().entryView(id: id)
            // The waveform reads the whole file: only for what shows it.
            let page = EntryPage(view, waveform: original ? nil : waveform(of: view.recording))
            try output.show(page) { original ? $0.originalText() : $0.text(color: stdoutColor) }
        }
    }
}

/// The small waveform `entry show` and `assignment show` draw; nil when the file cannot be read.
func waveform(of details: RecordingDetails?) -> [Waveform.Column]? {
    guard let details else { return nil }
    let summary = try? WaveformSummary.make(of: URL(fileURLWithPath: details.recording.path), columns: RecordingLines.waveformColumns)
    return summary?.columns.map { Waveform.Column(peak: $0.peak, rms: $0.rms) }
}

/// Colours on standard output (a terminal, no `NO_COLOR`).
var stdoutColor: Bool { TerminalInfo.detect(fileDescriptor: STDOUT_FILENO).color }
