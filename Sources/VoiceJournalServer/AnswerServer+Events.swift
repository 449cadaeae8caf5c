import Foundation
import VoiceJournalTerminal

extension AnswerServer {
    /// What happens, for the executable to print (`lines` words it).
    package enum Event: Sendable, Equatable {
        /// The server listens: where, where its links point, and how many assignments wait.
        case listening(Listening)
        /// An answer was stored (or, `again`, a repeated send found the first one).
        case answered(assignmentId: Int64, recordingId: Int64, seconds: Double, again: Bool)
        /// An upload was refused, with the reason (what the client was told, or what went wrong).
        case refused(assignmentId: Int64, status: Int, reason: String, client: String)
        /// A client was asked to wait (429): the first refusal of a run of them, not each one.
        case limited(client: String, what: String, retryAfter: Int)
        /// A warning about how the server was started.
        case warning(String)
        /// The server stopped after a signal; `transcribing`: it ran transcription too.
        case stopped(transcribing: Bool)
    }

    /// Where the server listens and where its links point.
    package struct Listening: Sendable, Equatable {
        /// The address it was asked to listen on (`--host`).
        package let host: String
        package let port: Int
        /// Listening on every interface (0.0.0.0, ::): an address to listen on, never one to open.
        package let isEveryInterface: Bool
        /// The address to open: `http://HOST:PORT`, this machine's name standing in for every interface.
        package let address: String
        /// Where links point: the public URL, else `address`.
        package let links: String
        /// What set the public URL (`--public-url`, …); nil without one.
        package let linksOrigin: String?
        /// Assignments waiting for their answer when the server started.
        package let waiting: Int

        /// `hostName` (this machine's name) stands in for a `host` that means every interface;
        /// `origin` says what set `publicURL`.
        package init(host: String, port: Int, publicURL: String?, origin: String? = nil, waiting: Int, hostName: String) {
            self.host = host
            self.port = port
            isEveryInterface = AnswerServer.isEveryInterface(host)
            let shown = isEveryInterface ? hostName : host
            address = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
            links = publicURL ?? address
            linksOrigin = publicURL == nil ? nil : origin
            self.waiting = waiting
        }

        /// Whether links point somewhere else than where the server listens (a proxy, a tunnel).
        package var linksPointElsewhere: Bool { links != address }
    }
}

/// One line `serve` prints: on stdout (what happens), or on stderr as a notice (warnings,
/// refusals, the stop), where the executable names itself and escapes the whole line.
package struct ServeLine: Sendable, Equatable {
    package let text: String
    /// On stderr as a notice, not on stdout.
    package let isNotice: Bool

    static func output(_ text: String) -> ServeLine { ServeLine(text: text, isNotice: false) }
    static func notice(_ text: String) -> ServeLine { ServeLine(text: text, isNotice: true) }
}

extension AnswerServer.Event {
    /// The lines `serve` prints for this event, in order.
    package var lines: [ServeLine] {
        switch self {
        case .listening(let listening):
            let links = TerminalText.escaped(listening.links)
            let waiting = listening.waiting
            let waitingLine = ServeLine.output(
                "\(waiting) assignment\(waiting == 1 ? "" : "s") waiting; see each one's link with: voicejournal assignment link ID")
            // Said outright when the links lead elsewhere (a proxy, a tunnel), and what said so.
            let elsewhere: [ServeLine] = listening.linksPointElsewhere
                ? [.output("Links point to \(links)" + (listening.linksOrigin.map { " (\(TerminalText.escaped($0)))" } ?? "")
                    + ", not to where it listens.")]
                : []
            guard listening.isEveryInterface else {
                return [.output("Serving answers on \(listening.address) (links: \(links)/a/TOKEN). Ctrl-C stops.")] + elsewhere + [waitingLine]
            }
            return [
                .notice("warning: --host \(listening.host) serves plain HTTP to every network this machine is on. Browsers allow "
                    + "the microphone only on https pages (or on this machine itself): put a reverse proxy with TLS in front, "
                    + "give its https address as --public-url, and listen on 127.0.0.1 (see docs/serve.md)"),
                .output("Serving answers on every interface, port \(listening.port) (links: \(links)/a/TOKEN). Ctrl-C stops."),
            ] + elsewhere + [waitingLine]
        case let .answered(id, recording, seconds, again):
            return [.output(again ? "Assignment #\(id): the same answer was sent again (recording \(recording)); nothing new stored."
                            : String(format: "Assignment #%lld answered: recording %lld, %.1f s.", id, recording, seconds))]
        case let .refused(id, status, reason, client):
            return [.notice("refused an upload for assignment #\(id) from \(client) (\(status)): \(reason)")]
        case let .limited(client, what, retryAfter):
            return [.notice("asked \(client) to wait \(retryAfter) s (429: too many \(what)); until then its requests are refused without a line each")]
        case .warning(let text):
            return [.notice("warning: " + text)]
        case .stopped(let transcribing):
            return [.notice("stopped" + (transcribing ? "; answers not transcribed yet stay queued (voicejournal queue run)" : ""))]
        }
    }
}
