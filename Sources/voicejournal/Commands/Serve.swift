import ArgumentParser
import Foundation
import Logging
import Pipeline
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
            give its address as --public-url (see the README). Ctrl-C or SIGTERM stops it after \
            the uploads in flight.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Address to listen on (0.0.0.0: every interface; see the README first).") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port).") var port = 8787
    @OptionGroup var link: LinkOptions
    @Option(help: ArgumentHelp("The name the page shows as asking (default: the config file's asked_by, else none).", valueName: "name"))
    var askedBy: String?
    @Option(help: ArgumentHelp("The longest answer, in seconds.", valueName: "seconds")) var maxAnswerSeconds = 180
    @Option(help: ArgumentHelp("The largest upload, in bytes; bigger ones get 413 before they reach the disk.", valueName: "bytes"))
    var maxUploadBytes: Int64 = 32_000_000
    @Option(help: ArgumentHelp("Requests a minute from one address before it is asked to wait (429).", valueName: "n"))
    var requestsPerMinute = 120
    @Flag(help: "Transcribe answers as they arrive (runs the queue in this process).") var transcribe = false
    @Option(help: "With --transcribe: uploads at a time (default: each config-file endpoint's concurrency, else 4); with several endpoints, a cap on them all, the preferred first.") var jobs: Int?
    @OptionGroup(title: "With --transcribe") var transcription: TranscriptionFlags

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (5...3600).contains(maxAnswerSeconds) else { throw ValidationError("--max-answer-seconds must be 5 to 3600") }
        guard maxUploadBytes >= 1024 else { throw ValidationError("--max-upload-bytes must be at least 1024") }
        guard requestsPerMinute >= 1 else { throw ValidationError("--requests-per-minute must be at least 1") }
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
            ServeTranscriber(store: store) {
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
                group.cancelAll()
                throw CLIError.configuration(error.description)
            }
            // Stopped by a signal, after the uploads in flight: transcription in flight goes back to the queue.
            group.cancelAll()
        }
        printNotice("stopped" + (transcriber == nil ? "" : "; answers not transcribed yet stay queued (voicejournal queue run)"))
    }

    private static func report(_ event: AnswerServer.Event, publicURL: Setting<String>, waiting: Int) {
        switch event {
        case let .listening(host, port):
            let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
            // Without a public URL of its own, links point where the server listens.
            let links = publicURL.source == .builtIn ? address : publicURL.value
            printNow("Serving answers on \(address) (links: \(TerminalText.escaped(links))/a/TOKEN). Ctrl-C stops.")
            printNow("\(waiting) assignment\(waiting == 1 ? "" : "s") waiting; see each one's link with: voicejournal assignment link ID")
        case let .answered(id, recording, seconds, again):
            printNow(again ? "Assignment #\(id): the same answer was sent again (recording \(recording)); nothing new stored."
                        : String(format: "Assignment #%lld answered: recording %lld, %.1f s.", id, recording, seconds))
        case let .refused(id, status, reason):
            printNotice("refused an upload for assignment #\(id) (\(status)): \(reason)")
        }
    }
}

/// One line on stdout at once, not when a buffer fills: a server's output is read as it happens.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
