import Foundation
import TOMLKit

/// The `[mail]` table of the config file: the SMTP server mail goes through, as written and
/// checked. Plain values (Settings depends on no module of ours); the mail module's
/// `MailSettings` says what each does.
///
/// ```toml
/// [mail]
/// url = "smtp://smtp.example.org:587"     # STARTTLS required; smtps://host:465 for TLS from the start
/// from = "journal@example.org"
/// from_name = "Family Journal"
/// username = "journal@example.org"        # the password: VOICEJOURNAL_SMTP_PASSWORD, never here
/// ca_file = "/etc/ssl/my-ca.pem"          # trust this CA instead of the system's
/// allow_plain_loopback = false            # true: no TLS, only to 127.0.0.1, ::1 or localhost
/// notify = false                          # serve emails you when an answer is stored
/// notify_to = "me@example.org"            # where your notices go (answers, the nudge); default: from
/// send_timeout = 60                       # seconds one message may take, connecting included
/// reminders_per_day = 3                   # the most reminders one person gets in a day
/// remind_after_days = 3                   # remind --due: unanswered this long after the link went
/// reminders_most = 3                      # remind --due: the most reminders of one assignment
/// ```
package struct MailTable: Sendable, Equatable {
    package var url: String?
    package var from: String?
    package var fromName: String?
    package var username: String?
    package var caFile: String?
    package var allowPlainLoopback = false
    package var notify = false
    /// Where the owner's notices go (answers landed, the nudge's email); nil: Myself's address, else `from`.
    package var notifyTo: String?
    package var sendTimeout: Double?
    package var remindersPerDay: Int?
    /// `remind --due`'s policy: days unanswered before the first reminder, and the most of them.
    package var remindAfterDays: Double = 3
    package var remindersMost = 3
    /// The line of the table's header, for messages.
    package var line: Int?

    package init() {}

    /// The keys `[mail]` takes.
    static let keys: Set<String> = ["url", "from", "from_name", "username", "ca_file", "allow_plain_loopback", "notify", "notify_to",
                                   "send_timeout", "reminders_per_day", "remind_after_days", "reminders_most"]
    /// The variable the password is read from (the mail module's `MailSettings.passwordVariable`).
    package static let passwordVariable = "VOICEJOURNAL_SMTP_PASSWORD"
}

extension ConfigFile.TableReader {
    func mail(_ table: TOMLTable) throws(ConfigError) -> MailTable {
        var mail = MailTable()
        let name = "mail"
        mail.line = lines.line(ofTable: name)
        for key in ordered(table.keys, in: name) {
            let value = table[key]
            switch key {
            case "url":
                let url = try text(value, key, in: name)
                if let problem = rules.mailURLProblem(url, table["allow_plain_loopback"]?.bool ?? false) {
                    throw invalid(key, in: name, "cannot be used: \(problem)")
                }
                mail.url = url
            case "from":
                let address = try text(value, key, in: name)
                if let problem = rules.mailAddressProblem(address) { throw invalid(key, in: name, "cannot be used: \(problem)") }
                mail.from = address
            case "from_name": mail.fromName = try oneLine(value, key, in: name)
            case "username": mail.username = try oneLine(value, key, in: name)
            case "ca_file": mail.caFile = (try text(value, key, in: name) as NSString).expandingTildeInPath
            case "allow_plain_loopback": mail.allowPlainLoopback = try flag(value, key, in: name)
            case "notify": mail.notify = try flag(value, key, in: name)
            case "notify_to":
                let address = try text(value, key, in: name)
                if let problem = rules.mailAddressProblem(address) { throw invalid(key, in: name, "cannot be used: \(problem)") }
                mail.notifyTo = address
            case "send_timeout":
                guard let seconds = value?.double ?? value?.int.map(Double.init) else {
                    throw wrongType(key, in: name, expected: "a number of seconds", got: value)
                }
                guard seconds.isFinite, (1...3600).contains(seconds) else { throw invalid(key, in: name, "must be from 1 to 3600 seconds") }
                mail.sendTimeout = seconds
            case "reminders_per_day": mail.remindersPerDay = try count(value, key, in: name)
            case "remind_after_days":
                guard let days = value?.double ?? value?.int.map(Double.init) else {
                    throw wrongType(key, in: name, expected: "a number of days", got: value)
                }
                guard days.isFinite, (0...365).contains(days) else { throw invalid(key, in: name, "must be from 0 to 365 days") }
                mail.remindAfterDays = days
            case "reminders_most": mail.remindersMost = try count(value, key, in: name)
            default:
                throw unknownKey(key, in: name, hint: "")
            }
        }
        guard mail.url != nil, mail.from != nil else {
            let missing = [mail.url == nil ? "url" : nil, mail.from == nil ? "from" : nil].compactMap { $0 }.joined(separator: " and ")
            throw ConfigError(kind: .invalidValue, path: path, line: mail.line, message:
                "[mail] needs \(missing), such as url = \"smtp://smtp.example.org:587\" and from = \"journal@example.org\"")
        }
        return mail
    }

    /// Text of one line: no line break or other control character (it goes in a header or a login).
    private func oneLine(_ value: TOMLValueConvertible?, _ key: String, in table: String) throws(ConfigError) -> String {
        let text = try text(value, key, in: table)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw invalid(key, in: table, "must be one line without control characters")
        }
        return text
    }

    private func flag(_ value: TOMLValueConvertible?, _ key: String, in table: String) throws(ConfigError) -> Bool {
        guard let flag = value?.bool else { throw wrongType(key, in: table, expected: "true or false", got: value) }
        return flag
    }

    /// A count of messages, 0 (none) to 100.
    private func count(_ value: TOMLValueConvertible?, _ key: String, in table: String) throws(ConfigError) -> Int {
        guard let count = value?.int else { throw wrongType(key, in: table, expected: "a whole number", got: value) }
        guard (0...100).contains(count) else { throw invalid(key, in: table, "must be from 0 (none) to 100") }
        return count
    }
}
