import VoiceJournalStore
import VoiceJournalTerminal

/// What `assignment show` prints: the question, the person, the link that answers it, and
/// the answer's recording and timed transcript once there is one.
package struct AssignmentPage: Encodable, Sendable {
    package var view: AssignmentView
    /// The answer's envelope; nil before it is answered or when its file cannot be read.
    package var waveform: [Waveform.Column]?

    package init(_ view: AssignmentView, waveform: [Waveform.Column]?) {
        self.view = view
        self.waveform = waveform
    }

    enum CodingKeys: String, CodingKey {
        case assignment, recording, waveform, deliveries
    }

    /// `--json`: the assignment, and the recording (with the commands that play it and each
    /// timed segment) and its RMS envelope (0–1) when there are.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(view.assignment, forKey: .assignment)
        try container.encodeIfPresent(view.recording.map(PlayableRecording.init), forKey: .recording)
        try container.encodeIfPresent(waveform?.map(\.rms), forKey: .waveform)
        try container.encode(view.deliveries, forKey: .deliveries)
    }

    /// The page, with `link` (the URL that answers it); `color` draws the waveform in colour.
    package func text(link: String, color: Bool) -> String {
        let assignment = view.assignment
        var lines = [
            "Assignment #\(assignment.id)  \(assignment.status.rawValue)  \(TerminalText.escaped(assignment.journal))",
            "Question #\(assignment.questionId): \(TerminalText.escaped(assignment.question))",
            "Person:  \(TerminalText.escaped(assignment.person))",
            "Given:   \(LocalDate.short(assignment.createdAt))" + (assignment.answeredAt.map { ", answered \(LocalDate.short($0))" } ?? ""),
            "Link:    \(TerminalText.escaped(link))",
        ] + Self.deliveryLines(view.deliveries, reminders: assignment.reminderCount, id: assignment.id)
        guard let details = view.recording else {
            return (lines + ["\nNot answered yet: voicejournal answer \(assignment.id)"]).joined(separator: "\n")
        }
        lines += RecordingLines.lines(details, waveform: waveform, color: color) + [""]
        lines.append(details.transcript.map(RecordingLines.transcript) ?? "(not transcribed yet; run: voicejournal queue run)")
        if let transcript = details.transcript { lines += TranscriptReading.translationLines(transcript) }
        return lines.joined(separator: "\n")
    }

    /// Each email sent for it: when, to whom, and the server's answer; one whose outcome is
    /// unknown says so, and what the user may do.
    static func deliveryLines(_ deliveries: [Delivery.Summary], reminders: Int, id: Int64) -> [String] {
        guard !deliveries.isEmpty else { return [] }
        var lines = ["Emails:" + (reminders > 0 ? " (\(reminders) reminder\(reminders == 1 ? "" : "s"))" : "")]
        for delivery in deliveries {
            let when = LocalDate.short(delivery.sentAt ?? delivery.createdAt)
            let reply = delivery.reply.map { ": " + TerminalText.escaped($0) } ?? ""
            let what = delivery.kind == .remind ? "reminder" : delivery.kind.rawValue
            lines.append("  \(when)  \(what) to \(TerminalText.escaped(delivery.recipient))  \(delivery.state.rawValue)\(reply)")
            if delivery.state == .unknown {
                lines.append("    it may have arrived: it is not sent again by itself; voicejournal assignment send \(id) --again sends it again")
            }
        }
        return lines
    }
}
