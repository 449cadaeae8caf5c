import VoiceJournalStore
import VoiceJournalTerminal

/// A transcript as people read it, with what the review found shown in its place: each
/// stretch of speech no words came back for as `[unheard 02:14–02:17]`, and (in `entry
/// show`) each segment the model was unsure of followed by ` (?)`. One wording for every
/// page, sidecar and export, so a reader learns it once.
package enum TranscriptReading {
    /// What follows a low-confidence segment in `entry show`.
    package static let lowConfidenceMark = " (?)"

    /// `[unheard 02:14–02:17]` (mm:ss, h:mm:ss from an hour on; an en dash). The start is
    /// cut to the second and the end rounded up, so the two always hold the whole stretch.
    package static func unheard(_ gap: Transcript.Gap) -> String {
        let end = gap.end.isFinite ? gap.end.rounded(.up) : gap.end
        return "[unheard \(Clock.text(gap.start, .position))\u{2013}\(Clock.text(max(end, gap.start), .position))]"
    }

    /// The transcript's text with each unheard stretch marked in its place (the `.txt`
    /// sidecar, Markdown export): exactly the stored text when nothing went unheard.
    package static func text(_ text: String, segments: [Transcript.Segment], unheard: [Transcript.Gap]) -> String {
        TranscriptTimeline.inserting(unheard.map { (at: $0.start, text: Self.unheard($0)) }, into: text, segments: segments)
    }

    /// The same for a stored transcript.
    package static func text(_ transcript: Transcript) -> String {
        text(transcript.text, segments: transcript.segments, unheard: transcript.unheard)
    }

    /// `entry show`'s lines: one per segment, `[00:01] words`, ` (?)` after a low-confidence
    /// one, and each unheard stretch on its own line in time order. Without segments, the
    /// text and then the unheard stretches. Everything heard is escaped.
    package static func lines(_ transcript: Transcript) -> String {
        let gaps = transcript.unheard.sorted { $0.start < $1.start }
        guard !transcript.segments.isEmpty else {
            return ([TerminalText.escapedLines(transcript.text)] + gaps.map(unheard)).filter { !$0.isEmpty }.joined(separator: "\n")
        }
        var lines: [(at: Double, line: String)] = transcript.segments.map { segment in
            let words = TerminalText.escaped(segment.text.trimmingCharacters(in: .whitespacesAndNewlines))
            return (segment.start, "[\(Clock.text(segment.start, .position))] " + words
                    + (segment.isLowConfidence ? lowConfidenceMark : ""))
        }
        // A stretch goes before the first segment starting at or after it (stable: segments keep their order).
        for gap in gaps.reversed() {
            let index = lines.firstIndex { $0.at >= gap.start } ?? lines.count
            lines.insert((gap.start, unheard(gap)), at: index)
        }
        return lines.map(\.line).joined(separator: "\n")
    }

    /// The heading the English translation goes under, on every page and export.
    package static let translationHeading = "Translation (English):"

    /// `entry show`'s and `assignment show`'s lines for the translation, after the transcript:
    /// a blank line, the heading, the translation timed like the transcript, and, when one
    /// was asked and is missing (or missing for part of a long recording), why in brackets.
    /// Empty when none was asked.
    package static func translationLines(_ transcript: Transcript) -> [String] {
        guard transcript.translation != nil || transcript.translationNote != nil else { return [] }
        var lines = ["", translationHeading]
        if let translation = transcript.translation {
            lines.append(self.lines(Transcript(recordingId: transcript.recordingId, text: translation, model: transcript.model,
                                               segments: transcript.translationSegments)))
        }
        if let note = transcript.translationNote { lines.append(noteLine(note, translated: transcript.translation != nil)) }
        return lines
    }

    /// `[not stored: why]` (or `[why]` beside a translation that is there in part).
    package static func noteLine(_ note: String, translated: Bool) -> String {
        "[" + (translated ? "" : "not stored: ") + TerminalText.escaped(note) + "]"
    }

    /// The translation as an export's text: the heading and the text, or the note; nil when
    /// none was asked.
    package static func translationText(translation: String?, note: String?) -> String? {
        guard translation != nil || note != nil else { return nil }
        let noted = note.map { " [" + (translation == nil ? "not stored: " : "") + $0 + "]" } ?? ""
        return translationHeading + "\n\n" + (translation ?? "") + noted
    }

    /// `entry show --raw`: what the transcript leaves out, each with its time and why, and
    /// what was sent. Empty when there is nothing to tell.
    package static func audit(_ transcript: Transcript) -> [String] {
        var lines: [String] = []
        let leftOut = transcript.leftOut.sorted { $0.start < $1.start }
        if leftOut.isEmpty {
            lines.append("Left out: nothing")
        } else {
            lines.append("Left out (heard by the model, not in the text):")
            for item in leftOut {
                let span = "\(Clock.text(item.start, .position))\u{2013}\(Clock.text(item.end.isFinite ? item.end.rounded(.up) : item.end, .position))"
                lines.append("  [\(span)] \(TerminalText.escaped(item.reason)): \"\(TerminalText.escaped(item.text.trimmingCharacters(in: .whitespacesAndNewlines)))\"")
            }
        }
        let resends = "\(transcript.resends) re-send\(transcript.resends == 1 ? "" : "s")"
        if let sent = transcript.audioSentSeconds {
            lines.append(String(format: "Audio sent: %.1f s", sent) + " (\(resends))")
        } else {
            lines.append("Audio sent: not counted (transcribed before voicejournal counted it)" + (transcript.resends > 0 ? " (\(resends))" : ""))
        }
        return lines
    }
}
