import Foundation

/// A real SMTP server for the tests (Tests/Servers/smtp_server.py: aiosmtpd 1.4.6, from the
/// python scripts/mail-setup makes) on 127.0.0.1, on a port the OS picks: STARTTLS or implicit
/// TLS with a certificate the test makes, AUTH PLAIN/LOGIN, and faults on request. Each message
/// it takes is written to its folder with what Python's email package parses of it. Stopped
/// on release.
public final class SMTPTestServer: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the process is only
    // terminated (idempotently) from stop()/deinit.
    public let port: Int
    public let security: Security
    /// Where the messages and events.jsonl are written.
    public let folder: TemporaryFolder
    private let process: Process

    /// How the server protects its connections.
    public enum Security: String, Sendable {
        /// Offers STARTTLS and requires it before MAIL and AUTH (port 587's way).
        case startTLS = "starttls"
        /// TLS from the first byte (smtps://, port 465's way).
        case implicitTLS = "implicit"
        /// Plain text; no STARTTLS offered.
        case none
    }

    /// What the server does wrong on purpose.
    public enum Fault: Sendable, Equatable {
        case none
        /// 421 at MAIL FROM for the first `count` transactions, then as `none`.
        case deferFirst(Int)
        /// 550 5.1.1 at RCPT TO: no such user.
        case rejectRecipient
        /// After 354 and the first line of the body, the connection is closed.
        case closeMidData
        /// Takes the whole message (it is written) and never answers the final dot.
        case hangAfterData
        /// Accepts connections and never says anything (no greeting).
        case hang

        var arguments: [String] {
            switch self {
            case .none: ["--fault", "none"]
            case .deferFirst(let count): ["--fault", "defer", "--count", String(count)]
            case .rejectRecipient: ["--fault", "reject-rcpt"]
            case .closeMidData: ["--fault", "close-mid-data"]
            case .hangAfterData: ["--fault", "hang-after-data"]
            case .hang: ["--fault", "hang"]
            }
        }
    }

    /// A self-signed certificate and its key (PEM), made with openssl for one day: the server
    /// presents it, and a client trusts it by naming it as its CA file.
    public struct Certificate: Sendable {
        public let certificate: URL
        public let key: URL

        /// A certificate for `subjectAltName` (`IP:127.0.0.1`, `DNS:mail.other.invalid`) in `folder`.
        public static func make(in folder: URL, name: String, subjectAltName: String) throws -> Certificate {
            let certificate = folder.appendingPathComponent("\(name).pem"), key = folder.appendingPathComponent("\(name)-key.pem")
            try runTool("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=\(name)",
                                    "-addext", "subjectAltName=\(subjectAltName)", "-keyout", key.path, "-out", certificate.path])
            return Certificate(certificate: certificate, key: key)
        }

        /// Made once per test process: a certificate for 127.0.0.1 and localhost.
        public static var loopback: Certificate { get throws { try shared.get().loopback } }
        /// Made once per test process: a certificate for another name (mail.other.invalid).
        public static var otherName: Certificate { get throws { try shared.get().other } }

        /// Where the shared certificates are, removed when the test process exits.
        private static let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("smtp-certificates-\(ProcessInfo.processInfo.processIdentifier)")
        private static let shared = Result { () throws -> (loopback: Certificate, other: Certificate) in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(at: Certificate.folder) }
            return (try make(in: folder, name: "127.0.0.1", subjectAltName: "IP:127.0.0.1,DNS:localhost"),
                    try make(in: folder, name: "mail.other.invalid", subjectAltName: "DNS:mail.other.invalid"))
        }
    }

    /// The python that runs the server: `$VOICEJOURNAL_MAIL_PYTHON`, else the one scripts/mail-setup
    /// prints (it makes `.venv-mail` once, then only checks it).
    public static var python: String { get throws { try setUp.get() } }
    private static let setUp = Result { () throws -> String in
        if let path = ProcessInfo.processInfo.environment["VOICEJOURNAL_MAIL_PYTHON"], !path.isEmpty { return path }
        return try runTool(PackagePaths.root.appendingPathComponent("scripts/mail-setup").path, [])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server script in the package.
    public static var script: URL { PackagePaths.root.appendingPathComponent("Tests/Servers/smtp_server.py") }

    /// Starts a server. `certificate` is the one presented (default: `Certificate.loopback`;
    /// unused with `.none`); `login` the user and password AUTH must give (nil: no AUTH asked),
    /// `authOnly` the one mechanism offered ("PLAIN" or "LOGIN"; nil: both).
    /// The password reaches the server through its environment, never its arguments.
    public init(security: Security = .startTLS, certificate: Certificate? = nil, login: (user: String, password: String)? = nil,
                authOnly: String? = nil, fault: Fault = .none) throws {
        self.security = security
        folder = try TemporaryFolder("smtp-server")
        var arguments = [Self.script.path, "--dir", folder.path("received").path, "--tls", security.rawValue] + fault.arguments
        if security != .none {
            let certificate = try certificate ?? Certificate.loopback
            arguments += ["--cert", certificate.certificate.path, "--key", certificate.key.path]
        }
        var environment = ProcessInfo.processInfo.environment
        if let login {
            environment["SMTP_TEST_PASSWORD"] = login.password
            arguments += ["--user", login.user, "--password-env", "SMTP_TEST_PASSWORD"]
            if let authOnly { arguments += ["--auth-only", authOnly] }
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.python)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ToolFailure(command: "smtp_server.py", status: -1, stderr: "did not print its port")
        }
        self.port = port
    }

    deinit { stop() }

    /// Stops the server (idempotent).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The URL a client is given: `smtp://127.0.0.1:PORT` (`smtps://` with implicit TLS), or
    /// with another host name for this machine (`localhost`).
    public func url(host: String = "127.0.0.1") -> String {
        "\(security == .implicitTLS ? "smtps" : "smtp")://\(host):\(port)"
    }

    /// Every message taken so far, in the order taken.
    public func messages() throws -> [ReceivedMail] {
        let received = folder.path("received")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            var mail = try JSONDecoder().decode(ReceivedMail.self, from: Data(contentsOf: received.appendingPathComponent(name)))
            mail.raw = try Data(contentsOf: received.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".eml")))
            return mail
        }
    }

    /// The server's events so far (`connection`, `auth`, `deferred`, `rcpt-refused`,
    /// `closed-mid-data`, `hang-after-data`, `hang`), each a JSON object with `event` and `at`.
    public func events() -> [[String: Any]] {
        guard let text = try? String(contentsOf: folder.path("received/events.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The events named `name`.
    public func events(_ name: String) -> [[String: Any]] { events().filter { $0["event"] as? String == name } }

    /// Everything the server wrote (messages, parsed summaries, events) as one text: for
    /// checking that a secret never reached any of it.
    public func everythingWritten() -> String {
        let received = folder.path("received")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []
        return names.compactMap { try? String(contentsOf: received.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    }
}

/// One message as the test SMTP server took it and Python's email package (policy.default) parsed it.
public struct ReceivedMail: Decodable, Sendable {
    public let mailFrom: String
    public let rcptTos: [String]
    /// Whether it came over TLS.
    public let tls: Bool
    /// The login AUTH gave; nil: none.
    public let login: String?
    /// Each header's value, decoded (encoded words undone), unfolded; the first of a name.
    public let headers: [String: String]
    /// Each header's physical lines as they came (folded lines apart).
    public let rawHeaders: [String: [String]]
    /// From's and To's mailboxes: [display name ("" for none), address].
    public let addresses: [String: [[String]]]
    /// The Date header as ISO 8601 (with its offset), as the email package read it.
    public let date: String?
    /// The HTML part's start tags and its text, as html.parser tells them apart.
    public let htmlTags: [String]
    public let htmlText: String
    public let contentType: String
    /// The content types of every part, the message's own first.
    public let parts: [String]
    /// The leaf parts' Content-Transfer-Encoding and charset.
    public let encodings: [String?]
    public let charsets: [String?]
    /// The text/plain and text/html parts, decoded.
    public let text: String?
    public let html: String?
    /// What the email package found wrong.
    public let defects: [String]
    /// The longest line of the message (its CRLF left out), and whether every line ends in CRLF.
    public let longestLine: Int
    public let allCRLF: Bool
    /// The bytes as taken (dot-stuffing removed).
    public internal(set) var raw = Data()

    enum CodingKeys: String, CodingKey {
        case mailFrom = "mail_from", rcptTos = "rcpt_tos", tls, login, headers, rawHeaders = "raw_headers", addresses, date
        case htmlTags = "html_tags", htmlText = "html_text"
        case contentType = "content_type", parts, encodings, charsets, text, html, defects
        case longestLine = "longest_line", allCRLF = "all_crlf"
    }

    /// What the email package makes of `message` (its bytes as they would be sent), without
    /// sending it: the summary the server writes, with no envelope.
    public static func parse(_ message: Data) throws -> ReceivedMail {
        let folder = try TemporaryFolder("mail-parse")
        let file = folder.path("message.eml")
        try message.write(to: file)
        let json = try runTool(try SMTPTestServer.python, [SMTPTestServer.script.path, "--parse", file.path])
        var mail = try JSONDecoder().decode(ReceivedMail.self, from: Data(json.utf8))
        mail.raw = message
        return mail
    }

    /// The text part with its line breaks as LF.
    public var plainText: String? { text?.replacingOccurrences(of: "\r\n", with: "\n") }
}
