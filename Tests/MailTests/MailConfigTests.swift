import Foundation
import Testing
import VoiceJournalBatch
import VoiceJournalMail
import VoiceJournalPages
import VoiceJournalSettings

/// The config file's `[mail]` table: read and checked like `[chat]`, each problem on its line,
/// and never a password in it.
@Suite struct MailConfigTests {
    let path = "/etc/example/config.toml"

    func parse(_ text: String) throws(ConfigError) -> ConfigFile {
        try ConfigFile.parse(text, path: path, rules: .voiceJournal)
    }

    func refusal(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    func settings(_ file: ConfigFile?) -> Settings {
        Settings(flags: Settings.Flags(), environment: [:], rules: .voiceJournal, home: "/tmp/home", file: file,
                 configPath: Setting(path, from: .builtIn))
    }

    @Test func theTableIsReadWithItsDefaults() throws {
        let file = try parse("""
            [mail]
            url = "smtp://smtp.example.org:587"
            from = "journal@example.org"
            from_name = "Zoë Łukasiewicz"
            username = "journal@example.org"
            ca_file = "/etc/ssl/certs/ca-certificates.crt"
            notify = true
            send_timeout = 30
            reminders_per_day = 5
            """)
        let table = try #require(file.mail)
        #expect(table.url == "smtp://smtp.example.org:587" && table.from == "journal@example.org" && table.fromName == "Zoë Łukasiewicz")
        #expect(table.username == "journal@example.org" && table.notify && table.sendTimeout == 30 && table.remindersPerDay == 5)
        #expect(!table.allowPlainLoopback && table.line == 1)

        let mail = try settings(file).mailSettings(environment: [MailSettings.passwordVariable: "app-password-1"])
        #expect(mail.security == .startTLS && mail.host == "smtp.example.org" && mail.from.displayName == "Zoë Łukasiewicz")
        #expect(mail.notify && mail.sendTimeout == 30 && mail.remindersPerDay == 5 && mail.hasPassword)
        #expect(mail.origin == "[mail] in \(path)")

        let bare = try settings(try parse("[mail]\nurl = \"smtps://mail.example.org\"\nfrom = \"a@example.org\"")).mailSettings(environment: [:])
        #expect(bare.security == .implicitTLS && !bare.notify && bare.username == nil)
        #expect(bare.sendTimeout == MailSettings.defaultSendTimeout && bare.remindersPerDay == 3 && MailSettings.defaultSendTimeout == 60)
    }

    @Test func noTableMeansMailIsNotSetUpAndTheMessageSaysHow() throws {
        #expect(throws: MailError.self) { try settings(nil).mailSettings(environment: [:]) }
        let file = try parse("[defaults]\njournal = \"x\"")
        do {
            _ = try settings(file).mailSettings(environment: [:])
            Issue.record("set up without [mail]")
        } catch {
            #expect(error.kind == .notConfigured && error.description.contains("[mail]") && error.description.contains(path))
            #expect(error.description.contains("url =") && error.description.contains("VOICEJOURNAL_SMTP_PASSWORD"))
        }
    }

    @Test func aPasswordInTheFileIsRefusedPointingToTheVariable() throws {
        for key in ["password", "smtp_password", "pass", "api_key"] {
            let error = try #require(refusal("""
                [mail]
                url = "smtp://smtp.example.org:587"
                from = "journal@example.org"
                \(key) = "hunter2-secret"
                """))
            #expect(error.kind == .keyInFile && error.line == 4, "\(key)")
            #expect(error.message.contains("VOICEJOURNAL_SMTP_PASSWORD") && !error.description.contains("hunter2-secret"))
        }
    }

    @Test func eachProblemIsRefusedOnItsLine() throws {
        let cases: [(String, ConfigError.Kind, Int?, String)] = [
            ("url = \"https://smtp.example.org\"\nfrom = \"a@example.org\"", .invalidValue, 2, "smtp://"),
            ("url = \"smtp://me:pw@smtp.example.org\"\nfrom = \"a@example.org\"", .invalidValue, 2, "username"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"not an address\"", .invalidValue, 3, "from"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\\r\\nBcc: x@example.org\"", .invalidValue, 3, "line break"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\"\nfrom_name = \"Zoë\\nBcc: x\"", .invalidValue, 4, "one line"),
            ("url = \"smtp://smtp.example.org:25\"\nfrom = \"a@example.org\"\nallow_plain_loopback = true", .invalidValue, 2, "127.0.0.1"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\"\nsend_timeout = 0", .invalidValue, 4, "1 to 3600"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\"\nreminders_per_day = \"3\"", .wrongType, 4, "whole number"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\"\nnotify = \"yes\"", .wrongType, 4, "true or false"),
            ("url = \"smtp://smtp.example.org\"\nfrom = \"a@example.org\"\nreply_to = \"x\"", .unknownKey, 4, "reply_to"),
            ("from = \"a@example.org\"", .invalidValue, 1, "needs url"),
        ]
        for (body, kind, line, words) in cases {
            let error = try #require(refusal("[mail]\n" + body), "\(body)")
            #expect(error.kind == kind && error.line == line && error.message.contains(words), "\(body): \(error)")
        }
        // Plain text to this machine is taken when asked for.
        let local = try parse("[mail]\nurl = \"smtp://127.0.0.1:25\"\nfrom = \"me@localhost\"\nallow_plain_loopback = true")
        #expect(try settings(local).mailSettings(environment: [:]).security == .plainLoopback)
        #expect(refusal("mail = 3")?.kind == .wrongType)
    }
}
