import Foundation
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalTerminal

/// Reflections asked for automatically (`reflect = "auto"` under `[chat]`, `record --reflect`):
/// the job a new entry gets, the run after a live take, and the queue's reflection run.
package enum AutoReflection {
    /// Queues a reflection of the new entry when the settings ask for it; its words may not be
    /// there yet (a recording's transcript lands later): the job waits for them.
    package static func queue(entryId: Int64?, settings: Settings, store: JournalStore) throws {
        guard settings.autoReflect.value, let entryId else { return }
        try store.queueReflection(entryId: entryId)
    }

    /// After a live take whose transcript is in: the entry's reflection, asked for at once.
    /// Returns the lines to show — the reflection's own line of encouragement when it came
    /// back valid, else a line saying where it stands — and never throws: the take is kept
    /// whatever the chat server does, and its job stays queued for `queue run`.
    package static func afterTake(entryId: Int64?, settings: Settings, store: JournalStore,
                                  environment: [String: String]) async -> [String] {
        guard settings.autoReflect.value, let entryId else { return [] }
        do {
            try store.queueReflection(entryId: entryId)
            guard try store.pendingReflectionJobs(entries: [entryId]).claimable > 0 else {
                return ["The reflection waits for the entry's transcript: `voicejournal queue run` asks for it once it is in."]
            }
            let runner = try settings.reflectionRunner(store: store, environment: environment)
            // One try while the person waits; a retry is the queue's, later.
            _ = try await runner.run(until: .entries([entryId])) { event in
                if case .willRetry = event { runner.stop() }
            }
            guard let stored = try store.latestReflection(entryId: entryId) else { return [] }
            guard let reflection = Reflector.decode(stored) else {
                return ["The reflection failed its checks: `voicejournal reflect \(entryId)` shows why."]
            }
            return [TerminalText.escaped(reflection.encouragement)]
        } catch let error as ReflectionError where error.isConfiguration {
            return ["The reflection stays queued: \(error.description)"]
        } catch is CancellationError {
            return ["The reflection stays queued (the chat server did not answer yet): `voicejournal queue run` asks again."]
        } catch {
            return ["The reflection stays queued (\(error)): `voicejournal queue run` asks again."]
        }
    }

    /// `queue run`'s reflections, after its transcriptions: every job that can be claimed (or
    /// those of `entries`: a `transcribe` run's), on the configured chat servers. Returns the report's lines; throws what stops the run
    /// (a refused key). With no chat server named, one line says the jobs wait.
    package static func drain(settings: Settings, store: JournalStore, environment: [String: String], entries: Set<Int64>? = nil,
                              notice: @escaping @Sendable (String) -> Void) async throws -> [String] {
        if entries?.isEmpty == true { return [] }
        let pending = try store.pendingReflectionJobs(entries: entries)
        guard pending.claimable > 0 else {
            return pending.unfinished > 0 ? ["Reflections: \(pending.unfinished) wait for their entries' transcripts."] : []
        }
        guard settings.chat != nil else {
            return ["Reflections: \(pending.claimable) queued, waiting for a chat server: name one with --chat-url, "
                + "VOICEJOURNAL_CHAT_URL or [chat] base_url (or start the local one: voicejournal-chat-server)."]
        }
        let runner = try settings.reflectionRunner(store: store, environment: environment)
        let summary = try await runner.run(until: entries.map { .entries($0) } ?? .drainQueue) { notice(Self.notice(for: $0)) }
        let counts = try store.reflectionJobCounts()
        var line = "Reflections: \(summary.reflected) made"
        if summary.failedChecks > 0 { line += " (\(summary.failedChecks) failed their checks)" }
        if summary.failed > 0 { line += ", \(summary.failed) failed" }
        if counts.waiting > 0 { line += ", \(counts.waiting) wait for transcripts" }
        return [line + "."]
    }

    /// The line `drain` hands `notice` for a runner's event, as it happens.
    static func notice(for event: ReflectionRunner.Event) -> String {
        switch event {
        case .reflected(let entryId, let reflection, _):
            "Reflected on entry \(entryId)" + (reflection.status == .failed ? " (it failed its checks: `voicejournal reflect \(entryId)` shows why)" : "")
        case .willRetry(let entryId, let error, let after):
            "Reflection of entry \(entryId) will be tried again in \(Int(after.rounded(.up))) s: \(error.description)"
        case .failed(let entryId, let message): "Reflection of entry \(entryId) failed: \(message)"
        case .endpointDown(let endpoint, let message): "Chat server \(endpoint) is out for now (\(message)); the others take its work"
        case .endpointBack(let endpoint): "Chat server \(endpoint) answers again"
        case .endpointDropped(let endpoint, let message): "Chat server \(endpoint) is left out for this run: \(message)"
        }
    }
}
