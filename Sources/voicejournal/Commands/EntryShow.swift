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

        /// Columns of the small waveform (and of its `--json` envelope).
        static let waveformColumns = 48

        /// Everything `entry show --json` gives: the entry's own keys (as `entry list` has
        /// them, so readers of the earlier output keep working) and beside them the rest.
        struct Shown: Encodable {
            let entry: EntryDetails
            let recording: RecordingDetails?
            /// The recording's RMS envelope, 0–1, `waveformColumns` slices; nil when its file cannot be read.
            let waveform: [Double]?
            /// What the entry said before it was first corrected; nil if it never was.
            let original: EntryOriginal?

            enum CodingKeys: String, CodingKey {
                case recording, waveform, original
            }

            func encode(to encoder: any Encoder) throws {
                try entry.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(recording, forKey: .recording)
                try container.encode(waveform, forKey: .waveform)
                try container.encode(original, forKey: .original)
            }
        }

        func run() async throws {
            let store = try global.openStoreForReading()
            let entry = try store.entry(id: id)
            let details = try store.recordingDetails(ofEntry: id)
            let before = try store.original(ofEntry: id)
            // The waveform reads the whole file: only for what shows it.
            let summary = original ? nil : details.flatMap { try? WaveformSummary.make(of: URL(fileURLWithPath: $0.recording.path),
                                                                      columns: Self.waveformColumns) }
            if output.json {
                return try printJSON(Shown(entry: entry, recording: details, waveform: summary?.columns.map(\.rms),
                                           original: before))
            }
            if original {
                guard let before else { return print("Entry #\(id) was never corrected.") }
                print("#\(entry.id) as first stored (corrected \(shortDate(before.correctedAt)))\n")
                return print(before.segments.isEmpty ? TerminalText.escapedLines(before.text) : Self.timedLines(before.segments))
            }
            // Everything quoted was typed or heard: escaped; only a text's own line breaks stay.
            print("#\(entry.id)  \(shortDate(entry.createdAt))  \(TerminalText.escaped(entry.journal))  \(entry.kind.rawValue)")
            if let title = entry.title { print("Title: \(TerminalText.escaped(title))") }
            if let mood = entry.mood { print("Mood:  \(mood.rawValue)") }
            if let theme = entry.theme { print("Theme: \(theme.rawValue)") }
            if let details { Self.printRecording(details, summary: summary) }
            if let before { print("Corrected: \(shortDate(before.correctedAt)) (the original: --original)") }
            print("")
            if !entry.content.isEmpty { print(TerminalText.escapedLines(entry.content)) }
            if let transcript = details?.transcript {
                print(Self.shown(transcript))
            } else if entry.recordingId != nil {
                print("(transcript \(entry.transcriptionState?.rawValue ?? "not queued"); run: voicejournal queue run)")
            }
        }

        /// The recording's file, length, levels, a small waveform and what it answers.
        static func printRecording(_ details: RecordingDetails, summary: WaveformSummary?) {
            let recording = details.recording
            var facts = [String(format: "%.1f s", recording.durationSeconds), recording.format,
                         "\(recording.sampleRate) Hz"]
            if let peak = recording.peakDBFS { facts.append("peak \(MeterLine.dbfs(peak)) dBFS") }
            if let rms = recording.rmsDBFS { facts.append("rms \(MeterLine.dbfs(rms)) dBFS") }
            print("Audio: \(TerminalText.escaped(recording.path))")
            print("       " + facts.joined(separator: " · "))
            if let summary {
                let envelope = summary.columns.map { Waveform.Column(peak: $0.peak, rms: $0.rms) }
                let color = TerminalInfo.detect(fileDescriptor: STDOUT_FILENO).color
                for line in Waveform.render(envelope, height: 4, color: color) { print("       " + line) }
            } else {
                print("       (the audio file cannot be read)")
            }
            if let answers = details.answers {
                print("Answers: question #\(answers.questionId) \"\(TerminalText.escaped(answers.question))\" "
                      + "(assignment #\(answers.id), \(TerminalText.escaped(answers.person)))")
            }
        }

        /// A transcript one segment a line with its time, or its text when it has no segments.
        static func shown(_ transcript: Transcript) -> String {
            transcript.segments.isEmpty ? TerminalText.escapedLines(transcript.text) : timedLines(transcript.segments)
        }

        /// One line per segment: `[00:01] text`.
        static func timedLines(_ segments: [Transcript.Segment]) -> String {
            segments.map { "[\(Clock.text($0.start, .position))] " + TerminalText.escaped($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
                .joined(separator: "\n")
        }
    }
}
