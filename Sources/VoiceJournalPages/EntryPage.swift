import VoiceJournalAudio
import Foundation
import VoiceJournalLanguages
import VoiceJournalStore
import VoiceJournalTerminal

/// What `entry show` prints of one entry: a header, its recording with a small waveform, and
/// its text or timed transcript; or, as `--json`, the entry's own keys (as `entry list` has
/// them, so readers of the earlier output keep working) with the rest beside them.
package struct EntryPage: Encodable, Sendable {
    package var view: EntryView
    /// The recording's envelope, `RecordingLines.waveformColumns` slices; nil when it is not
    /// shown or its file cannot be read.
    package var waveform: [Waveform.Column]?

    package init(_ view: EntryView, waveform: [Waveform.Column]?) {
        self.view = view
        self.waveform = waveform
    }

    enum CodingKeys: String, CodingKey {
        case recording, waveform, original, segments, reflection
    }

    /// The waveform as its RMS envelope (0–1); every key is written, null when there is nothing.
    /// Each timed segment (the entry's own `segments` and its recording's) carries `play`, the
    /// command that plays it from a second before, and the recording its own `play`.
    package func encode(to encoder: any Encoder) throws {
        try view.entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let segments = view.entry.segments, let recording = view.recording?.recording {
            // Over the entry's own key: the encoder keeps a key's last value.
            try container.encode(PlayableSegment.list(segments, of: recording), forKey: .segments)
        }
        try container.encode(view.recording.map(PlayableRecording.init), forKey: .recording)
        try container.encode(waveform?.map(\.rms), forKey: .waveform)
        try container.encode(view.original, forKey: .original)
        try container.encode(view.reflection.map { ReflectionPage($0, entry: view.entry) }, forKey: .reflection)
    }

    /// The page; `color` draws the waveform in colour; `raw` adds the transcript's audit
    /// (what was left out of it and why, the audio sent). Everything quoted was typed or
    /// heard: escaped, and only a text's own line breaks stay.
    package func text(color: Bool, raw: Bool = false) -> String {
        let entry = view.entry
        var lines = ["#\(entry.id)  \(LocalDate.short(entry.createdAt))  \(TerminalText.escaped(entry.journal))  \(entry.kind.rawValue)"]
        if let title = entry.title { lines.append("Title: \(TerminalText.escaped(title))") }
        if let mood = entry.mood { lines.append("Mood:  \(mood.rawValue)") }
        if let theme = entry.theme { lines.append("Theme: \(theme.rawValue)") }
        if let details = view.recording { lines += RecordingLines.lines(details, waveform: waveform, color: color) }
        if let before = view.original { lines.append("Corrected: \(LocalDate.short(before.correctedAt)) (the original: --original)") }
        lines.append("")
        if !entry.content.isEmpty { lines.append(TerminalText.escapedLines(entry.content)) }
        if let transcript = view.recording?.transcript {
            lines.append(RecordingLines.transcript(transcript))
            lines += TranscriptReading.translationLines(transcript)
            if raw { lines += [""] + TranscriptReading.audit(transcript) }
        } else if entry.recordingId != nil {
            lines.append("(transcript \(entry.transcriptionState?.rawValue ?? "not queued"); run: voicejournal queue run)")
        }
        if let reflection = view.reflection { lines += [""] + ReflectionPage(reflection, entry: entry).lines() }
        return lines.joined(separator: "\n")
    }

    /// `entry show --original`: what the entry said before its first correction.
    package func originalText() -> String {
        guard let before = view.original else { return "Entry #\(view.entry.id) was never corrected." }
        return "#\(view.entry.id) as first stored (corrected \(LocalDate.short(before.correctedAt)))\n\n"
            + (before.segments.isEmpty ? TerminalText.escapedLines(before.text) : RecordingLines.timed(before.segments))
    }
}

/// A recording as `entry show` and `assignment show` present it.
package enum RecordingLines {
    /// Columns of the small waveform (and of its `--json` envelope).
    package static let waveformColumns = 48

    /// The recording's file, length, levels, a small waveform (nil: the file cannot be read),
    /// the command that plays it and what it answers.
    package static func lines(_ details: RecordingDetails, waveform: [Waveform.Column]?, color: Bool) -> [String] {
        let recording = details.recording
        var facts = [String(format: "%.1f s", recording.durationSeconds), recording.format, "\(recording.sampleRate) Hz"]
        if let peak = recording.peakDBFS { facts.append("peak \(MeterLine.dbfs(peak)) dBFS") }
        if let rms = recording.rmsDBFS { facts.append("rms \(MeterLine.dbfs(rms)) dBFS") }
        var lines = ["Audio: \(TerminalText.escaped(recording.path))", "       " + facts.joined(separator: " · ")]
        if let waveform {
            lines += Waveform.render(waveform, height: 4, color: color).map { "       " + $0 }
        } else {
            lines.append("       (the audio file cannot be read)")
        }
        if let play = PlayCommandText.recording(recording) { lines.append("Play:  \(play)") }
        if let language = LanguageText.named(details.transcript?.language) {
            lines.append("Language: \(TerminalText.escaped(language))")
        }
        if let answers = details.answers {
            lines.append("Answers: question #\(answers.questionId) \"\(TerminalText.escaped(answers.question))\" "
                         + "(assignment #\(answers.id), \(TerminalText.escaped(answers.person)))")
        }
        return lines
    }

    /// A transcript one segment a line with its time, or its text when it has no segments;
    /// unheard stretches and low-confidence segments marked (see `TranscriptReading.lines`).
    package static func transcript(_ transcript: Transcript) -> String {
        TranscriptReading.lines(transcript)
    }

    /// One line per segment: `[00:01] text`, ` (?)` after a low-confidence one.
    package static func timed(_ segments: [Transcript.Segment]) -> String {
        TranscriptReading.lines(Transcript(recordingId: 0, text: "", model: "", segments: segments))
    }
}

extension RecordingLines {
    /// The small waveform `entry show` and `assignment show` draw, read from the recording's
    /// file (blocking); nil when the file cannot be read.
    package static func waveform(of details: RecordingDetails?) -> [Waveform.Column]? {
        guard let details else { return nil }
        let summary = try? WaveformSummary.make(of: URL(fileURLWithPath: details.recording.path), columns: waveformColumns)
        return summary?.columns.map { Waveform.Column(peak: $0.peak, rms: $0.rms) }
    }
}
