import ArgumentParser
import Foundation
import Logging
import Settings
import Server
import Store
import Terminal

/// `voicejournal serve` — the other end of the links `assign` prints.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the page where a person records their answer to an assignment.",
        discussion: """
            Each assignment's link (`assign` and `assignment link ID` print it) opens a page with \
            the question, a record button and a send button; the recording arrives in the journal \
            as the assignment's answer, its transcription queued (run at once with --transcribe). \
            The link's token is its only credential. Listens on 127.0.0.1 unless --host says \
            otherwise: to reach it from a phone, put a reverse proxy or tunnel with TLS in front and \
            give its address as --public-url (see docs/serve.md), and name the proxy with \
            --trusted-proxy so each visitor is rate-limited on their own. Ctrl-C or SIGTERM stops it \
            after the uploads in flight (at most --shutdown-timeout seconds).
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Address to listen on (0.0.0.0: every interface; see docs/serve.md first).") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port).") var port = 8787
    @OptionGroup var link: LinkOptions
    @Option(help: ArgumentHelp("The name the page shows as asking (default: the config file's asked_by, else none).", valueName: "name"))
    var askedBy: String?
    @Option(help: ArgumentHelp("The longest answer, in seconds.", valueName: "seconds")) var maxAnswerSeconds = 180
    @Option(help: ArgumentHelp("The largest upload, in bytes; bigger ones get 413 before they reach the disk.", valueName: "bytes"))
    var maxUploadBytes: Int64 = 32_000_000
    @Option(help: ArgumentHelp("Requests a minute for one link, and from one address for links that do not work, before the next is asked to wait (429).", valueName: "n"))
    var requestsPerMinute = 120
    @Option(help: ArgumentHelp("A reverse proxy in front of serve (an IP address; repeatable): its X-Forwarded-For names the client. From anyone else the header is ignored.", valueName: "address"))
    var trustedProxy: [String] = []
    @Option(help: ArgumentHelp("Seconds a connection may stay open with no request under way (a slow request head included).", valueName: "seconds"))
    var idleTimeout = 30.0
    @Option(help: ArgumentHelp("Seconds a whole request, the upload included, may take to arrive.", valueName: "seconds"))
    var uploadTimeout = 300.0
    @Option(help: ArgumentHelp("Seconds uploads in flight get to finish after Ctrl-C or SIGTERM.", valueName: "seconds"))
    var shutdownTimeout = 30.0
    @Option(help: ArgumentHelp("Connections open at once (fewer if the open-file limit allows fewer).", valueName: "n"))
    var maxConnections = 256
    @Flag(help: "Transcribe answers as they arrive (runs the queue in this process).") var transcribe = false
    @Option(help: JobsHelp.withTranscribe) var jobs: Int?
    @OptionGroup(title: "With --transcribe") var transcription: TranscriptionFlags

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (5...3600).contains(maxAnswerSeconds) else { throw ValidationError("--max-answer-seconds must be 5 to 3600") }
        guard maxUploadBytes >= 1024 else { throw ValidationError("--max-upload-bytes must be at least 1024") }
        guard requestsPerMinute >= 1 else { throw ValidationError("--requests-per-minute must be at least 1") }
        for proxy in trustedProxy where !AnswerServer.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy needs the proxy's IP address, e.g. 127.0.0.1 (not \(proxy))")
        }
        for (name, value) in [("--idle-timeout", idleTimeout), ("--upload-timeout", uploadTimeout), ("--shutdown-timeout", shutdownTimeout)]
        where !(0.1...86_400).contains(value) {
            throw ValidationError("\(name) must be 0.1 to 86400 seconds")
        }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1 to 100000") }
        if let jobs { try validateJobs(jobs) }
        if host.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--host needs an address, e.g. 127.0.0.1") }
    }

    func run() async throws {
        var flags = transcription.flags(jobs: jobs)
        flags.publicURL = link.publicURL
        flags.askedBy = askedBy
        let settings = try global.settings(flags)
        let store = try global.openStore()
        let environment = ProcessInfo.processInfo.environment
        // A missing key or bad endpoint is said now (exit 3), not after the first answer.
        // The servers are resolved once; endpoints left out of the pool are said once, here.
        let pool = transcribe ? try transcription.endpoints(settings, jobs: jobs, environment: environment) : nil
        for line in pool?.leftOut ?? [] { printNotice("warning: " + line) }
        let transcriber = pool.map { pool in
            ServeTranscriber(store: store, firstPause: Self.refusedPause(environment)) {
                transcription.makeRunner(store: store, settings: settings, pool: pool, environment: environment, warnLeftOut: false)
            }
        }

        var configuration = AnswerServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.maxAnswerSeconds = maxAnswerSeconds
        configuration.maxUploadBytes = maxUploadBytes
        configuration.askedBy = settings.askedBy.value
        configuration.requestsPerMinute = requestsPerMinute
        configuration.trustedProxies = trustedProxy
        configuration.idleTimeout = idleTimeout
        configuration.uploadTimeout = uploadTimeout
        configuration.shutdownTimeout = shutdownTimeout
        configuration.maxConnections = maxConnections
        let server = AnswerServer(store: store, configuration: configuration, logger: Logger(label: "voicejournal.serve"))
        let publicURL = settings.publicURL
        let waiting = try store.assignments(status: .pending).count

        SignalWatch.unblockStopSignals()
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let transcriber { group.addTask { await transcriber.run() } }
            do {
                try await server.run { event in
                    Self.report(event, publicURL: publicURL, waiting: waiting)
                    if case .answered(_, _, _, false) = event { transcriber?.nudge() }
                }
            } catch let error as ServeError {
                // Reported by its kind (exit 3): the machine cannot serve where it was asked to.
                group.cancelAll()
                throw error
            }
            // Stopped by a signal, after the uploads in flight: transcription in flight goes back to the queue.
            group.cancelAll()
        }
        printNotice("stopped" + (transcriber == nil ? "" : "; answers not transcribed yet stay queued (voicejournal queue run)"))
    }

    private static func report(_ event: AnswerServer.Event, publicURL: Setting<String>, waiting: Int) {
        switch event {
        case let .listening(host, port):
            // Listening on every interface: 0.0.0.0 is no address a phone can open; this machine's name may be.
            let everywhere = AnswerServer.isEveryInterface(host)
            let shown = everywhere ? ProcessInfo.processInfo.hostName : host
            let address = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
            // Without a public URL of its own, links point where the server listens.
            let links = publicURL.source == .builtIn ? address : publicURL.value
            if everywhere {
                printNotice("warning: --host \(host) serves plain HTTP to every network this machine is on. Browsers allow "
                    + "the microphone only on https pages (or on this machine itself): put a reverse proxy with TLS in front, "
                    + "give its https address as --public-url, and listen on 127.0.0.1 (see docs/serve.md)")
                printNow("Serving answers on every interface, port \(port) (links: \(TerminalText.escaped(links))/a/TOKEN). Ctrl-C stops.")
            } else {
                printNow("Serving answers on \(address) (links: \(TerminalText.escaped(links))/a/TOKEN). Ctrl-C stops.")
            }
            printNow("\(waiting) assignment\(waiting == 1 ? "" : "s") waiting; see each one's link with: voicejournal assignment link ID")
        case let .answered(id, recording, seconds, again):
            printNow(again ? "Assignment #\(id): the same answer was sent again (recording \(recording)); nothing new stored."
                        : String(format: "Assignment #%lld answered: recording %lld, %.1f s.", id, recording, seconds))
        case let .refused(id, status, reason, client):
            printNotice("refused an upload for assignment #\(id) from \(client) (\(status)): \(reason)")
        case let .limited(client, what, retryAfter):
            printNotice("asked \(client) to wait \(retryAfter) s (429: too many \(what)); until then its requests are refused without a line each")
        case .warning(let text):
            printNotice("warning: " + text)
        }
    }

    /// The first pause after the server refused the key: `VOICEJOURNAL_SERVE_RETRY_SECONDS`
    /// (tests shorten it), else 30 s.
    private static func refusedPause(_ environment: [String: String]) -> Duration {
        let seconds = environment["VOICEJOURNAL_SERVE_RETRY_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 30
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// One line on stdout at once, not when a buffer fills: a server's output is read as it happens.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
