import Foundation
import VoiceJournalMail
import VoiceJournalSettings
import VoiceJournalTerminal
import VoiceJournalTranscription

extension Settings {
    /// The mail settings of the config file's `[mail]` table, the password read from the
    /// environment; `notConfigured` when the file has no `[mail]` (mail goes nowhere unless the
    /// user set it up), `invalidConfiguration` when they cannot work.
    package func mailSettings(environment: [String: String]) throws(MailError) -> MailSettings {
        guard let file, let table = file.mail, let url = table.url, let from = table.from else {
            throw MailError(kind: .notConfigured, description:
                "mail is not set up: add a [mail] table to \(configPath.value) with url = \"smtp://smtp.example.org:587\" "
                + "(or smtps://…:465) and from = \"you@example.org\", plus username = \"…\" and the password in "
                + "\(MailSettings.passwordVariable) if the server wants a login (see docs/mail.md)")
        }
        return try MailSettings.resolve(url: url, from: from, fromName: table.fromName, username: table.username, caFile: table.caFile,
                                        allowPlainLoopback: table.allowPlainLoopback, notify: table.notify,
                                        sendTimeout: table.sendTimeout ?? MailSettings.defaultSendTimeout,
                                        remindersPerDay: table.remindersPerDay ?? MailSettings.defaultRemindersPerDay,
                                        environment: environment, origin: "[mail] in \(file.path)")
    }
}

/// `voicejournal mail test ADDRESS`: one short message through the `[mail]` server, and what
/// the server answered.
package enum MailTestRun {
    /// The test message from the settings' sender to `recipient`.
    package static func message(to recipient: MailAddress, settings: MailSettings) throws(MailError) -> MailMessage {
        let subject = settings.from.displayName.map { "voicejournal test message from \($0)" } ?? "voicejournal test message"
        let text = """
            This is a test message from voicejournal, sent with `voicejournal mail test` through \(settings.url) \
            (\(settings.security.rawValue)).

            If you can read it, mail works: voicejournal can send you what is assigned to you and remind you of it.
            """
        let html = MailHTML.document(title: subject, body: MailHTML.paragraphs(text))
        return try MailMessage(from: settings.from, to: recipient, subject: subject, text: text, html: html)
    }

    /// Sends the test message to `address` and gives the lines to print: where it went and the
    /// server's answer. A message the server did not take is an error (`MailError.notSent`).
    package static func run(address: String, settings: Settings, environment: [String: String], now: Date) async throws -> [String] {
        let recipient = try MailAddress(address)
        let mail = try settings.mailSettings(environment: environment)
        let message = try message(to: recipient, settings: mail)
        let (composed, outcome) = try await SMTPTransport(settings: mail).send(message, date: now)
        if let error = MailError.notSent(outcome) { throw error }
        let login = mail.username.map { ", logged in as \(TerminalText.escaped($0))" } ?? ""
        return [
            "sent a test message to \(recipient.address) through \(TerminalText.escaped(mail.url)) (\(mail.security.rawValue)\(login))",
            "message id: \(composed.messageID)",
            "the server answered: " + TerminalText.escaped(outcome.reply?.description ?? "(nothing)"),
        ]
    }
}
