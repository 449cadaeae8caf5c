import VoiceJournalCCurl
import VoiceJournalTranscription
import Foundation

/// The state of one message's exchange with the server that libcurl's C callbacks write into:
/// the message's bytes being read out, whether the data has begun, and the server's replies.
/// libcurl calls the callbacks on the thread running `curl_easy_perform`, one at a time, so no
/// locking is needed.
///
/// Only what the server says is kept (CURLINFO_HEADER_IN). What is sent (CURLINFO_HEADER_OUT)
/// is looked at for one thing, the command's verb, matched against a fixed list and never
/// copied: AUTH's lines carry the password.
final class SMTPExchange {
    /// The commands whose replies are told apart in messages.
    enum Command: String, Sendable {
        case greeting, EHLO, HELO, STARTTLS, AUTH, MAIL, RCPT, DATA, RSET, QUIT
        /// How a message names the step: "MAIL FROM", "RCPT TO", "the end of the data".
        var shown: String {
            switch self {
            case .greeting: "the greeting"
            case .MAIL: "MAIL FROM"
            case .RCPT: "RCPT TO"
            case .DATA: "DATA"
            default: rawValue
            }
        }
    }

    private let body: Data
    private var offset = 0
    private let abort: AbortSignal
    /// Seconds the whole exchange may take, and when it started (system uptime).
    private let deadline: Double
    private let started = ProcessInfo.processInfo.systemUptime
    /// The deadline passed and the progress callback stopped the exchange.
    private(set) var deadlinePassed = false
    /// libcurl asked for the message's first bytes: the server said 354, the data has begun.
    private(set) var dataBegan = false
    /// libcurl has taken the whole message (the final dot follows).
    private(set) var bodyRead = false
    /// The last command sent (its verb only).
    private(set) var lastCommand: Command = .greeting
    /// The last complete reply and the command it answered.
    private(set) var lastReply: SMTPReply?
    private(set) var lastReplyTo: Command = .greeting
    /// The first complete reply after the data began: the answer to the message.
    private(set) var dataReply: SMTPReply?

    /// The lines of a reply still coming (`250-…` lines before the last).
    private var pendingCode = 0
    private var pendingLines: [String] = []
    /// A line whose end has not arrived yet.
    private var partial = Data()
    /// The last reply was a 334 challenge: what is sent next is the login's answer to it.
    private var inChallenge = false

    /// The most lines of one reply kept, and characters of one line: a server's words are shown
    /// to the user, and a hostile one must not fill memory or the screen.
    static let keptLines = 20, keptCharacters = 512

    /// Asked once, when the server has accepted DATA and before the message's first byte:
    /// false withholds the message (the exchange stops with nothing of it sent).
    private let beforeData: (@Sendable () -> Bool)?

    init(body: Data, abort: AbortSignal, deadline: Double, beforeData: (@Sendable () -> Bool)? = nil) {
        self.body = body
        self.abort = abort
        self.deadline = deadline
        self.beforeData = beforeData
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> SMTPExchange? {
        userdata.map { Unmanaged<SMTPExchange>.fromOpaque($0).takeUnretainedValue() }
    }

    /// CURLOPT_READFUNCTION: the next bytes of the message; 0 at its end.
    static let read: ccurl_data_callback = { buffer, size, count, userdata in
        guard let exchange = SMTPExchange.from(userdata), let buffer else { return Int(CURL_READFUNC_ABORT) }
        if !exchange.dataBegan, let beforeData = exchange.beforeData, !beforeData() { return Int(CURL_READFUNC_ABORT) }
        exchange.dataBegan = true
        if exchange.abort.isRaised { return Int(CURL_READFUNC_ABORT) }
        let length = min(size * count, exchange.body.count - exchange.offset)
        if length > 0 {
            exchange.body.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + exchange.offset, byteCount: length)
            }
            exchange.offset += length
        }
        if exchange.offset == exchange.body.count { exchange.bodyRead = true }
        return length
    }

    /// CURLOPT_DEBUGFUNCTION: the server's reply lines, and the verb of each command sent.
    static let debug: ccurl_debug_callback = { _, type, data, size, userdata in
        guard let exchange = SMTPExchange.from(userdata), let data else { return 0 }
        if type == CURLINFO_HEADER_IN {
            exchange.partial.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: min(size, 64 << 10))
            exchange.takeLines()
        } else if type == CURLINFO_HEADER_OUT && !exchange.inChallenge {
            // The first word only, and only when it is a command's name: never anything more.
            // (What answers a 334 challenge is a login's base64, not a command: not looked at.)
            let word = UnsafeRawBufferPointer(start: data, count: min(size, 8)).prefix { $0 >= 0x41 && $0 <= 0x5A }
            if let command = Command(rawValue: String(decoding: word, as: UTF8.self)), command != .greeting {
                exchange.lastCommand = command
            }
        }
        return 0
    }

    /// CURLOPT_XFERINFOFUNCTION (about once a second, and on every chunk): non-zero stops the
    /// exchange when the signal is raised or the deadline has passed. This is what keeps the
    /// deadline: libcurl's own timeout would send QUIT to a server that has stopped answering
    /// and wait for its reply as long again; stopped from here, it waits no more than until
    /// the next call.
    static let progress: ccurl_progress_callback = { userdata, _, _, _, _ in
        guard let exchange = SMTPExchange.from(userdata) else { return 1 }
        if exchange.abort.isRaised { return 1 }
        if ProcessInfo.processInfo.systemUptime - exchange.started >= exchange.deadline {
            exchange.deadlinePassed = true
            return 1
        }
        return 0
    }

    private func takeLines() {
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
            partial.removeSubrange(partial.startIndex...newline)
            take(line.hasSuffix("\r") ? String(line.dropLast()) : line)
        }
        if partial.count > Self.keptCharacters * 4 { partial.removeAll() }
    }

    /// One line of a reply: `250-first`, …, `250 last`.
    private func take(_ line: String) {
        let digits = line.prefix(3)
        guard digits.count == 3, let code = Int(digits), (100..<600).contains(code) else { return }
        let rest = line.dropFirst(3)
        let more = rest.first == "-"
        let text = String((rest.first == "-" || rest.first == " " ? rest.dropFirst() : rest).prefix(Self.keptCharacters))
        if pendingLines.isEmpty || pendingCode != code { pendingCode = code; pendingLines = [] }
        if pendingLines.count < Self.keptLines { pendingLines.append(text) }
        guard !more else { return }
        inChallenge = code == 334
        let reply = SMTPReply(code: code, lines: pendingLines.last == "" && pendingLines.count == 1 ? [] : pendingLines)
        pendingLines = []
        // The goodbye (221) to the QUIT libcurl sends as it closes says nothing of the message.
        guard lastCommand != .QUIT else { return }
        lastReply = reply
        lastReplyTo = lastCommand
        if dataBegan && dataReply == nil && code != 354 { dataReply = reply }
    }
}
