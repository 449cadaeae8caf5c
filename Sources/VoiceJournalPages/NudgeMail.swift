import Foundation
import VoiceJournalMail
import VoiceJournalSettings
import VoiceJournalStore

/// `nudge`'s email, for when no desktop shows its notification: through the `[mail]` server to
/// the journal's owner (`[mail] notify_to`, else Myself's address, else `[mail] from`). Without `[mail]` it throws
/// `NudgeError.mailNotSetUp`, and `nudge` says how to set it up.
package enum NudgeMail {
    /// The sender `NudgeRun` calls (on a blocking thread: it sends there and then).
    package static func sender(settings: Settings, store: JournalStore, environment: [String: String]) -> NudgeRun.SendEmail {
        guard settings.file?.mail != nil else { return { _, _ in throw NudgeError.mailNotSetUp } }
        return { subject, text in
            let mail = try settings.mailSettings(environment: environment)
            let owner = try MailAddress(try settings.file?.mail?.notifyTo ?? store.ownerEmail() ?? mail.from.address)
            var message = try MailMessage(from: mail.from, to: owner, subject: subject, text: text,
                                          html: MailHTML.document(title: subject, body: MailHTML.paragraphs(text)))
            message.autoSubmitted = true
            let outcome = try SMTPConnection(settings: mail).send(message.composed(date: Now.date(), timeZone: .current))
            if let error = MailError.notSent(outcome) { throw error }
            return outcome.reply?.description ?? "sent"
        }
    }
}
