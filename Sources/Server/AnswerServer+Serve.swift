import Logging
import Settings
import Store

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
    /// the page shows and where links point come from `settings`; everything else from
    /// `configuration`. Returns after the uploads in flight (then `.stopped`); throws
    /// `ServeError` when it cannot listen where it was asked to.
    package static func serve(_ configuration: Configuration, settings: Settings, store: JournalStore, transcriber: Transcriber?,
                             logger: Logger, onEvent: @escaping @Sendable (Event) -> Void) async throws {
        var configuration = configuration
        configuration.askedBy = settings.askedBy.value
        // Without a public URL of its own, links point where the server listens.
        configuration.publicURL = settings.publicURL.source == .builtIn ? nil : settings.publicURL.value
        let server = AnswerServer(store: store, configuration: configuration, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let transcriber { group.addTask { await transcriber.run() } }
            do {
                try await server.run { event in
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
        onEvent(.stopped(transcribing: transcriber != nil))
    }
}
