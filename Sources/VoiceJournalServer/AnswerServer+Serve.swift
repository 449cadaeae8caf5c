import Foundation
import Logging
import VoiceJournalStore
import VoiceJournalSystem

extension AnswerServer {
    /// Transcription in the server's process (`serve --transcribe`): `run` transcribes until its
    /// task is cancelled; `nudge` says a new answer is queued. Any type can provide the two.
    package struct Transcriber: Sendable {
        package let run: @Sendable () async -> Void
        package let nudge: @Sendable () -> Void

        package init(run: @escaping @Sendable () async -> Void, nudge: @escaping @Sendable () -> Void) {
            self.run = run
            self.nudge = nudge
        }

        /// The first pause after the transcription server refused the key:
        /// `VOICEJOURNAL_SERVE_RETRY_SECONDS` (tests shorten it), else 30 s.
        package static func firstPause(environment: [String: String]) -> Duration {
            let seconds = environment["VOICEJOURNAL_SERVE_RETRY_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 30
            return .milliseconds(Int64(seconds * 1000))
        }
    }

    /// `voicejournal serve`: serves answers over `store` until SIGINT or SIGTERM, with
    /// `transcriber` (if any) running beside the server and nudged by each new answer. The name
    /// the page shows (`askedBy`) and where links point (`publicURL`, with what set it; nil:
    /// where the server listens) come from the settings; everything else from
    /// `configuration`. While it listens, its record in the home (`RunningServe`) tells the
    /// other commands where its links point. Returns after the uploads in flight (then
    /// `.stopped`); throws `ServeError` when it cannot listen where it was asked to.
    package static func serve(_ configuration: Configuration, askedBy: String?, publicURL: (url: String, origin: String?)?,
                             store: JournalStore, transcriber: Transcriber?, logger: Logger,
                             onEvent: @escaping @Sendable (Event) -> Void) async throws {
        var configuration = configuration
        configuration.askedBy = askedBy
        // Without a public URL of its own, links point where the server listens.
        configuration.publicURL = publicURL?.url
        configuration.publicURLOrigin = publicURL?.origin
        let server = AnswerServer(store: store, configuration: configuration, logger: logger)
        // The record other commands take their links from: written once it listens, removed when it stops.
        let hold = await Self.holdHome(store.home, onEvent: onEvent)
        defer { hold?.release() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let transcriber { group.addTask { await transcriber.run() } }
            do {
                try await server.run { event in
                    if case .listening(let listening) = event, let hold {
                        do {
                            try hold.record(RunningServe(pid: getpid(), address: listening.address, links: listening.links))
                        } catch {
                            onEvent(.warning("cannot write \(RunningServe.recordURL(in: store.home).path) (\(SystemError.reason(of: error))): "
                                + "assign and assignment link will not print this server's links"))
                        }
                    }
                    onEvent(event)
                    if case .answered(_, _, _, false) = event { transcriber?.nudge() }
                }
            } catch {
                // A ServeError is a configuration error (exit 3): the machine cannot serve where it was asked to.
                group.cancelAll()
                throw error
            }
            // Stopped by a signal, after the uploads in flight: transcription in flight goes back to the queue.
            group.cancelAll()
        }
        hold?.release()
        onEvent(.stopped(transcribing: transcriber != nil))
    }

    /// Takes the home's serve lock; nil (after saying why, in one line) when another serve
    /// holds it — this one runs all the same, its links unknown to the other commands — or
    /// when the lock file cannot be made.
    private static func holdHome(_ home: DataHome, onEvent: @Sendable (Event) -> Void) async -> RunningServe.Hold? {
        switch await RunningServe.claim(home) {
        case .held(let hold):
            return hold
        case .taken(let other):
            let who = other.map { "another serve (pid \($0.pid), links \($0.links)/a/TOKEN)" } ?? "another serve"
            onEvent(.warning("\(who) runs on this home: assign and assignment link print its links, not this one's, until it stops"))
        case .failed(let reason):
            onEvent(.warning("cannot lock \(RunningServe.lockURL(in: home).path) (\(reason)): "
                + "assign and assignment link will not print this server's links"))
        }
        return nil
    }
}
