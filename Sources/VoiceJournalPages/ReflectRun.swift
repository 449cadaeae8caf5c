import Foundation
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal

/// `voicejournal reflect ENTRY`, `--week [DATE]` or `--month [YYYY-MM]`: the command's whole
/// work, so the executable only parses.
package struct ReflectRun: Sendable {
    /// What is reflected on.
    package enum Subject: Sendable, Equatable {
        case entry(EntryReference)
        /// A week or a month, as the command line names it (nil: the current one).
        case period(JournalPeriod.Kind, String?)
    }

    package var subject: Subject
    /// With a period: only this journal's entries.
    package var journal: String?
    package var again = false
    package var apply = false
    package var dryRun = false
    package var json = false

    package init(entry: EntryReference) { subject = .entry(entry) }

    /// From the command line: `argument` is ENTRY, or with `week` or `month` the day or the
    /// month (none: this one). Exactly one of an entry, --week and --month; --journal goes
    /// with a period, --apply with an entry. A mistake is a usage error saying what to give.
    package init(argument: String?, week: Bool, month: Bool, journal: String?, apply: Bool) throws {
        switch (week, month) {
        case (true, true):
            throw StoreError.invalidInput("give one of --week and --month, not both")
        case (false, false):
            guard let argument else {
                throw StoreError.invalidInput("say what to reflect on: an entry (reflect 12, reflect last), --week [DATE] or --month [YYYY-MM]")
            }
            guard let entry = try? EntryReference(argument) else {
                throw StoreError.invalidInput("give an entry's id (see 'entry list') or last; or --week [DATE], --month [YYYY-MM] for a period")
            }
            guard journal == nil else {
                throw StoreError.invalidInput("--journal goes with --week or --month: an entry's reflection is about that entry alone")
            }
            subject = .entry(entry)
        case (let week, _):
            guard !apply else { throw StoreError.invalidInput("--apply takes an entry's suggestions; a week or a month suggests none") }
            subject = .period(week ? .week : .month, argument)
        }
        self.journal = journal
        self.apply = apply
    }

    /// What the command prints, and whether the reflection it shows failed its checks (exit 1).
    package struct Output: Sendable {
        package var text: String
        package var failed = false
    }

    /// Runs it and returns what goes on stdout.
    package func run(settings: Settings, store: JournalStore, environment: [String: String], now: Date) async throws -> Output {
        let entry: EntryReference
        switch subject {
        case .entry(let reference):
            entry = reference
        case .period(let kind, let when):
            var run = PeriodReflectRun(kind: kind, when: when, journal: journal)
            (run.again, run.dryRun, run.json) = (again, dryRun, json)
            return try await run.run(settings: settings, store: store, environment: environment, now: now)
        }
        // A wrong entry is said before a missing chat server: it is the nearer mistake.
        let entryId = try store.entryView(entry).entry.id
        let reflectors = try settings.reflectors(environment: environment)
        if dryRun {
            let (request, parts) = try reflectors[0].plan(entryId: entryId, in: store)
            return Output(text: Self.dryRunText(reflectors[0].body(of: request), request: request, parts: parts,
                                                endpoint: reflectors[0].endpoint, json: json))
        }
        var notes: [String] = []
        let (outcome, passed) = try await onThread { [again] in try Self.reflect(entryId, on: reflectors, store: store, again: again, now: now) }
        if !json { notes += passed }
        let page = ReflectionPage(outcome.reflection, entry: try store.entry(id: entryId))
        if case .kept = outcome, !json { notes.append("(kept from before; nothing was sent: --again asks for a new one)") }
        if apply, let reflection = page.reflection {
            let set = try store.applySuggestion(entryId: entryId, mood: reflection.mood, theme: reflection.themes.first)
            let said = [set.mood.map { "mood \($0.rawValue)" }, set.theme.map { "theme \($0.rawValue)" }].compactMap { $0 }
            if !json { notes.append(said.isEmpty ? "(--apply: the entry keeps its own mood and theme)" : "Applied to entry \(entryId): " + said.joined(separator: ", ")) }
        }
        let failed = page.reflection == nil
        if json { return Output(text: try JSONText.encode(page), failed: failed) }
        return Output(text: (page.lines() + notes).joined(separator: "\n"), failed: failed)
    }

    /// The reflection from the pool's first server that answers: one that cannot be reached,
    /// refuses the key or keeps failing passes the entry to the next (said in the returned
    /// notes); the last one's error is the command's.
    static func reflect(_ entryId: Int64, on reflectors: [Reflector], store: JournalStore, again: Bool,
                        now: Date) throws -> (Reflector.Outcome, [String]) {
        var notes: [String] = []
        let outcome = try ChatFailover.first(of: reflectors, ask: { reflector in
            try reflector.reflect(entryId: entryId, in: store, again: again, now: now)
        }, passed: { from, to, error in
            notes.append("(\(from.endpoint.shownBaseURL) did not answer — \(error.description) — so \(to.endpoint.shownBaseURL) was asked)")
        })
        return (outcome, notes)
    }

    /// `--dry-run`: the messages as they would go, the schema's form, and an estimate of the
    /// tokens; with `--json` the whole body. An entry too long for the context: its first
    /// part's request, and how many parts there would be.
    static func dryRunText(_ body: JSONValue, request: ChatRequest, parts: Int, endpoint: ChatEndpoint, json: Bool) -> String {
        if json {
            let document: JSONValue = ["url": .string(endpoint.shownBaseURL + "/chat/completions"), "estimatedInputTokens": .integer(request.estimatedTokens),
                                       "contextTokens": .integer(endpoint.contextTokens), "parts": .integer(parts), "sent": false, "body": body]
            return (try? JSONText.encode(document)) ?? document.compactText
        }
        var lines = ["Would send to \(endpoint.shownBaseURL)/chat/completions (model \(TerminalText.escaped(endpoint.model))); nothing was sent:"]
        if parts > 1 {
            lines.append("The entry is too long for the model's context (\(endpoint.contextTokens) tokens, [chat] context): it would be read "
                + "in \(parts) parts, each reflected on, then once as a whole from the parts' reflections. The first part's request:")
        }
        for message in request.messages {
            lines += ["", "[\(message.role)]", TerminalText.escapedLines(message.content)]
        }
        let form = body["response_format"]?["type"]?.stringValue ?? "none"
        lines += ["", "[response_format] \(form), schema: " + (request.schema?.compactText ?? "none")]
        lines.append("About \(request.estimatedTokens) input tokens, at most \(request.maxTokens) output tokens.")
        return lines.joined(separator: "\n")
    }
}
