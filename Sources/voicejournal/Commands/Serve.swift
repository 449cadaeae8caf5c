import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalPages
import VoiceJournalServer
import VoiceJournalSettings
import VoiceJournalSystem

/// `voicejournal serve` — the other end of the links `assign` prints.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the page where a person records their answer to an assignment.",
        discussion: CommandHelp.serve)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Address to listen on (0.0.0.0: every interface; see docs/serve.md first).") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port).") var port = 8787
    // Not LinkOptions: serve's own links never follow a running serve's.
    @Option(help: ArgumentHelp("Where this server is reached from outside, for its links (default: $VOICEJOURNAL_PUBLIC_URL, else the config file's public_url, else where it listens).",
                               valueName: "url"))
    var publicURL: String?
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
        if let problem = configuration.problem { throw ValidationError(problem) }
        if let jobs { try validateJobs(jobs) }
        if host.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--host needs an address, e.g. 127.0.0.1") }
    }

    /// The server as these options set it up; the name it shows and where its links point are
    /// the settings' when it runs.
    private var configuration: AnswerServer.Configuration {
        AnswerServer.Configuration(host: host, port: port, maxAnswerSeconds: maxAnswerSeconds, maxUploadBytes: maxUploadBytes,
            publicURL: publicURL, requestsPerMinute: requestsPerMinute, trustedProxies: trustedProxy, idleTimeout: idleTimeout,
            uploadTimeout: uploadTimeout, shutdownTimeout: shutdownTimeout, maxConnections: maxConnections)
    }

    func run() async throws {
        var flags = transcription.flags(jobs: jobs)
        (flags.publicURL, flags.askedBy) = (publicURL, askedBy)
        // Its own links never follow another serve's record (nor the one it left when killed).
        let settings = try global.settings(flags, followingServe: false)
        let store = try global.openStore()
        let environment = ProcessInfo.processInfo.environment
        // A missing key or bad endpoint is said now (exit 3), not after the first answer; endpoints left out, once.
        let pool = transcribe ? try settings.endpointPool(jobs: jobs, environment: environment, logger: Logger(label: "voicejournal.queue")) : nil
        for line in pool?.leftOut ?? [] { printNotice("warning: " + line) }
        let transcriber = pool.map { pool in
            InProcessTranscriber(queue: store.queue, firstPause: AnswerServer.Transcriber.firstPause(environment: environment),
                                 report: { $0.isResult ? printNow($0.text) : printNotice($0.text) }) {
                try transcription.makeRunner(store: store, settings: settings, pool: pool)
            }
        }
        let notifier = try AnswerNotifier.make(settings: settings, store: store, environment: environment, transcribing: transcribe, now: Now.date())
        SignalWatch.unblockStopSignals()
        let publicURL = settings.publicURL.source == .builtIn ? nil : (url: settings.publicURL.value, origin: settings.publicURLOrigin)
        try await AnswerServer.serve(configuration, askedBy: settings.askedBy.value, publicURL: publicURL, store: store,
                                     transcriber: transcriber.map { running in .init(run: { await running.run() }, nudge: { running.nudge() }) },
                                     logger: Logger(label: "voicejournal.serve")) { event in
            for line in event.lines { line.isNotice ? printNotice(line.text) : printNow(line.text) }
            if case let .answered(id, recording, _, _) = event, let notifier {
                Task { for line in await notifier.answered(assignmentId: id, recordingId: recording) { printNotice(line) } }
            }
        }
    }
}
