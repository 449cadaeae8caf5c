import Foundation
import VoiceJournalMail
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalTerminal

/// `serve` with `notify = true` in `[mail]`: when an answer is stored, the journal's owner
/// (`[mail] notify_to`, else Myself's address, else `[mail] from`) gets one email — "Zoë answered: Where did you
/// grow up?" — with the transcript when it is ready: a serve that transcribes waits a little
/// for it, and when it comes later a second, short email brings it. Each is a delivery of the
/// queue (shown by `assignment show`), sent at most once.
package struct AnswerNotifier: Sendable {
    let store: JournalStore
    let settings: Settings
    let environment: [String: String]
    let owner: MailAddress
    /// Whether this serve transcribes answers (a transcript is worth waiting for).
    let transcribing: Bool
    /// How long the first email waits for the transcript, and how long a later one is looked for.
    var firstWait: TimeInterval = 20
    var laterWait: TimeInterval = 600

    /// The notifier `[mail] notify` asks for; nil when it does not. Mail settings that cannot
    /// work are said now (serve stops before listening), not at the first answer.
    package static func make(settings: Settings, store: JournalStore, environment: [String: String], transcribing: Bool,
                             now: Date) throws -> AnswerNotifier? {
        guard settings.file?.mail?.notify == true else { return nil }
        let run = try AssignmentMailRun(store: store, settings: settings, environment: environment, now: now)
        let address = try settings.file?.mail?.notifyTo ?? store.ownerEmail() ?? run.mail.from.address
        return AnswerNotifier(store: store, settings: settings, environment: environment, owner: try MailAddress(address),
                              transcribing: transcribing)
    }

    /// Tells the owner of the answer `recordingId` to assignment `assignmentId`; the lines say
    /// what went (for serve's log).
    package func answered(assignmentId: Int64, recordingId: Int64) async -> [String] {
        do {
            let assignment = try store.assignment(id: assignmentId)
            var transcript = try await waitForTranscript(recordingId, up: transcribing ? firstWait : 0)
            var lines = try await send(assignment, transcript: transcript, second: false)
            guard transcript == nil, transcribing else { return lines }
            transcript = try await waitForTranscript(recordingId, up: laterWait)
            if transcript != nil { lines += try await send(assignment, transcript: transcript, second: true) }
            return lines
        } catch {
            return ["could not tell \(owner.address) of the answer to assignment \(assignmentId): \(error)"]
        }
    }

    func waitForTranscript(_ recordingId: Int64, up seconds: TimeInterval) async throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let text = try store.transcript(recordingId: recordingId)?.text, !text.isEmpty { return text }
            guard Date() < deadline else { return nil }
            try await Task.sleep(nanoseconds: 500_000_000)
        }
    }

    func send(_ assignment: AssignmentSummary, transcript: String?, second: Bool) async throws -> [String] {
        let subject = (second ? "What \(assignment.person) said: " : "\(assignment.person) answered: ")
            + AssignmentMail.shortened(assignment.question)
        let said = transcript.map { "They said:\n\n    \($0)" }
            ?? (transcribing ? "The transcript follows in a second email when it is ready."
                : "It is not transcribed yet (voicejournal queue run transcribes it).")
        let text = """
            \(assignment.person) answered the question "\(assignment.question)".

            \(said)

            Listen to it: voicejournal assignment show \(assignment.id) --play
            """
        let html = MailHTML.document(title: subject, body: MailHTML.paragraphs(text))
        // A run of its own, at this moment: serve runs for days.
        let run = try AssignmentMailRun(store: store, settings: settings, environment: environment, now: Now.date())
        let message = try MailMessage(from: run.mail.from, to: owner, subject: subject, text: text, html: html)
        do {
            return try await run.deliver(message, kind: .notify, assignment: assignment, to: owner)
        } catch let error as MailError {
            return [error.description]
        }
    }
}
