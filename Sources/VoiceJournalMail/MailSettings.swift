import Foundation

/// Where and how mail is sent: the SMTP server, the sender, the login, what TLS is required,
/// and the limits reminders keep to. Checked when made: a message is never handed to a server
/// these settings would send it to in the clear, or as someone it cannot be.
///
/// The password comes only from the environment (`VOICEJOURNAL_SMTP_PASSWORD`): it is never
/// read from a file, printed, logged, put in an error or passed as a process argument; only
/// libcurl gets it, for the login.
public struct MailSettings: Sendable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable {
        /// `smtps://`: TLS from the first byte (port 465).
        case implicitTLS = "TLS"
        /// `smtp://`: STARTTLS, required; a server that does not offer it is refused.
        case startTLS = "STARTTLS"
        /// `smtp://` to this machine with `allow_plain_loopback`: no TLS.
        case plainLoopback = "plain text (this machine only)"
    }

    /// The environment variable the SMTP password is read from.
    public static let passwordVariable = "VOICEJOURNAL_SMTP_PASSWORD"
    /// Seconds one message may take, connecting included, when the settings do not say.
    public static let defaultSendTimeout: Double = 60
    /// Reminders one person gets in a day at most, when the settings do not say.
    public static let defaultRemindersPerDay = 3
    /// The send timeouts taken, in seconds.
    public static let sendTimeoutRange: ClosedRange<Double> = 1...3600
    /// The daily reminder caps taken.
    public static let remindersPerDayRange = 0...100

    /// `smtp://host:port` or `smtps://host:port`, as given (no credentials, no path).
    public let url: String
    public let host: String
    public let security: Security
    /// The sender: the From header and the envelope's MAIL FROM.
    public let from: MailAddress
    /// The login; nil: none is sent.
    public let username: String?
    /// Never shown; only given to libcurl.
    let password: String?
    /// A PEM file of the CA certificates to trust instead of the system's.
    public let caFile: String?
    /// Whether `notify` is on: people are told by mail of what is assigned to them.
    public let notify: Bool
    /// Seconds one message may take, connecting included.
    public let sendTimeout: Double
    /// Reminders one person gets in a day at most.
    public let remindersPerDay: Int
    /// Where the settings were given, for messages: `[mail] in /home/me/.config/voicejournal/config.toml`.
    public let origin: String

    /// The settings, checked; the password is read from `environment`'s `VOICEJOURNAL_SMTP_PASSWORD`.
    /// `origin` names where they were given, for messages.
    public static func resolve(url: String, from: String, fromName: String? = nil, username: String? = nil, caFile: String? = nil,
                               allowPlainLoopback: Bool = false, notify: Bool = false, sendTimeout: Double = defaultSendTimeout,
                               remindersPerDay: Int = defaultRemindersPerDay, environment: [String: String],
                               origin: String) throws(MailError) -> MailSettings {
        func invalid(_ message: String) -> MailError {
            MailError(kind: .invalidConfiguration, description: "\(message); check \(origin)")
        }
        let target: (host: String, security: Security)
        switch Self.checkURL(url, allowPlainLoopback: allowPlainLoopback) {
        case .success(let checked): target = checked
        case .failure(let problem): throw invalid(problem.message)
        }
        let sender: MailAddress
        do {
            sender = try MailAddress(from, displayName: fromName)
        } catch {
            throw invalid("the sender (from, from_name) cannot be used: \(error.description)")
        }
        let user = username.flatMap { $0.isEmpty ? nil : $0 }
        if let user, HeaderText.problem(in: user) != nil {
            throw invalid("the username holds a line break or control character")
        }
        let password = environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let password {
            // Never quoted, however broken: it is still the password.
            guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw invalid("\(passwordVariable) holds a line break or control character; set it to the password alone")
            }
            guard user != nil else {
                throw invalid("\(passwordVariable) is set but [mail] names no username to log in with; add username = \"…\"")
            }
        } else if let user {
            throw invalid("[mail] logs in as \(HeaderText.shown(user)) but \(passwordVariable) is not set; "
                          + "set it to the password (for most providers an app password) in the environment")
        }
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw invalid("ca_file \(HeaderText.shown(caFile)) is not a readable file")
            }
        }
        guard sendTimeoutRange.contains(sendTimeout) else {
            throw invalid("send_timeout must be from \(Int(sendTimeoutRange.lowerBound)) to \(Int(sendTimeoutRange.upperBound)) seconds")
        }
        guard remindersPerDayRange.contains(remindersPerDay) else {
            throw invalid("reminders_per_day must be from \(remindersPerDayRange.lowerBound) to \(remindersPerDayRange.upperBound)")
        }
        return MailSettings(url: url, host: target.host, security: target.security, from: sender, username: user, password: password,
                            caFile: caFile, notify: notify, sendTimeout: sendTimeout, remindersPerDay: remindersPerDay, origin: origin)
    }

    /// Whether a password was given (the password itself is not readable from outside the module).
    public var hasPassword: Bool { password != nil }

    /// `text` without the password in any form a server could echo it (as it is, or in the
    /// base64 of AUTH PLAIN and AUTH LOGIN).
    public func redact(_ text: String) -> String {
        guard let password, password.count >= 3 else { return text }
        var forms = [password, Data(password.utf8).base64EncodedString()]
        if let username { forms.append(Data("\0\(username)\0\(password)".utf8).base64EncodedString()) }
        var result = text
        for form in forms.sorted(by: { $0.count > $1.count }) where result.contains(form) {
            result = result.replacingOccurrences(of: form, with: "[redacted]")
        }
        return result
    }

    public var description: String {
        "\(url) (\(security.rawValue)) from \(from)" + (username.map { " as \($0) (password \(hasPassword ? "set" : "not set"))" } ?? "")
    }

    // MARK: - The URL

    /// Why a mail URL cannot be used, as the middle of a sentence.
    public struct URLProblem: Error, Sendable, Equatable {
        public let message: String
    }

    /// The host and the security of `url`, or why it cannot be used: an `smtp://` or
    /// `smtps://` URL with a host and at most a port, no credentials, no path; plain text
    /// only to this machine and only when `allowPlainLoopback` says so.
    public static func checkURL(_ url: String, allowPlainLoopback: Bool) -> Result<(host: String, security: Security), URLProblem> {
        func problem(_ text: String) -> Result<(host: String, security: Security), URLProblem> { .failure(URLProblem(message: text)) }
        guard HeaderText.problem(in: url) == nil, !url.contains(" "), let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), let rawHost = components.host, !rawHost.isEmpty else {
            return problem("the mail url \(HeaderText.shown(url)) is not a URL such as \"smtp://mail.example.org:587\" or \"smtps://mail.example.org:465\"")
        }
        guard scheme == "smtp" || scheme == "smtps" else {
            return problem("the mail url must begin smtp:// (STARTTLS, usually port 587) or smtps:// (TLS, usually port 465), not \(scheme)://")
        }
        guard components.user == nil, components.password == nil else {
            return problem("the mail url holds a login; give the user as username in [mail] and the password in \(passwordVariable) only")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            return problem("the mail url must be the server alone, such as \"smtp://mail.example.org:587\" (no path)")
        }
        let host = rawHost.lowercased()
        let security: Security
        if scheme == "smtps" {
            security = .implicitTLS
        } else if allowPlainLoopback {
            guard isLoopback(host) else {
                return problem("allow_plain_loopback sends without TLS only to this machine (127.0.0.1, ::1, localhost), "
                               + "and \(host) is not it; take allow_plain_loopback out")
            }
            security = .plainLoopback
        } else {
            security = .startTLS
        }
        return .success((host, security))
    }

    /// Whether `host` is this machine: `localhost`, 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in part.count <= 3 && part.allSatisfy(\.isASCII) && UInt8(part) != nil }
    }
}
