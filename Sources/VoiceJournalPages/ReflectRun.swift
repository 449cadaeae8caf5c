import Foundation
import Logging
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal

/// `voicejournal reflect ENTRY`: the command's whole work, so the executable only parses.
package struct ReflectRun: Sendable {
    package var entry: EntryReference
    package var again = false
    package var apply = false
    package var dryRun = false
    package var json = false

    package init(entry: EntryReference) { self.entry = entry }

    /// What the command prints, and whether the reflection it shows failed its checks (exit 1).
    package struct Output: Sendable {
        package var text: String
        package var failed = false
    }

    /// Runs it and returns what goes on stdout.
    package func run(settings: Settings, store: JournalStore, environment: [String: String], now: Date) async throws -> Output {
        let endpoint = try settings.chatEndpoint(environment: environment)
        let reflector = Reflector(endpoint: endpoint, logger: Logger(label: "voicejournal.reflect"))
        let entryId = try store.entryView(entry).entry.id
        if dryRun {
            let (request, parts) = try reflector.plan(entryId: entryId, in: store)
            return Output(text: Self.dryRunText(reflector.body(of: request), request: request, parts: parts, endpoint: endpoint, json: json))
        }
        let outcome = try await onThread { [again] in try reflector.reflect(entryId: entryId, in: store, again: again, now: now) }
        let page = ReflectionPage(outcome.reflection, entry: try store.entry(id: entryId))
        var notes: [String] = []
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

extension Settings {
    /// The chat endpoint the settings name, ready to use; none named is a configuration
    /// error that says how to start the local server or name one.
    package func chatEndpoint(environment: [String: String]) throws -> ChatEndpoint {
        guard let chat else {
            throw ReflectionError("no chat endpoint is named, and a journal's words go only where you say: start the local one "
                + "(voicejournal-chat-setup --configure, then voicejournal-chat-server) or name a server with --chat-url, "
                + "VOICEJOURNAL_CHAT_URL or [chat] base_url in \(configPath.value)", isConfiguration: true)
        }
        let origin = switch chat.baseURL.source {
        case .flag(let name), .environment(let name): name
        case .configFile(let path): "[chat] base_url in \(path)"
        case .runningServe, .builtIn: "--chat-url"
        }
        var endpoint = try ChatEndpoint.resolve(baseURL: chat.baseURL.value, model: chat.model.value, keyVariable: chat.keyVariable,
                                                environment: environment, origin: origin)
        endpoint.schemaForm = chat.schema.flatMap(ChatEndpoint.SchemaForm.init(rawValue:))
        if let prices = chat.prices, prices.count == 2 { endpoint.pricePerMillion = (prices[0], prices[1]) }
        if let context = chat.context { endpoint.contextTokens = context }
        return endpoint
    }
}
