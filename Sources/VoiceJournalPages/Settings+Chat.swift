import Foundation
import Logging
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore

/// The chat pieces a command builds from the settings — the pool's endpoints, the reflectors
/// on them, the reflection queue's runner — made here alone, so `reflect`, `ask` and the
/// automatic reflections all ask the same servers, logged under the same labels.
extension Settings {
    /// Every chat server the settings name, the preferred first (`Settings.Chat.pool`), ready
    /// to use; none named is a configuration error that says how to start the local server
    /// or name one.
    package func chatEndpoints(environment: [String: String]) throws -> [ChatEndpoint] {
        guard let chat, !chat.pool.isEmpty else {
            throw ReflectionError("no chat endpoint is named, and a journal's words go only where you say: start the local one "
                + "(voicejournal-chat-setup --configure, then voicejournal-chat-server) or name a server with --chat-url, "
                + "VOICEJOURNAL_CHAT_URL or [chat] base_url in \(configPath.value)", isConfiguration: true)
        }
        return try chat.pool.map { member in
            var endpoint = try ChatEndpoint.resolve(baseURL: member.baseURL, model: member.model, keyVariable: member.keyVariable,
                                                    environment: environment, origin: member.origin)
            endpoint.schemaForm = member.schema.flatMap(ChatEndpoint.SchemaForm.init(rawValue:))
            if let prices = member.prices, prices.count == 2 { endpoint.pricePerMillion = (prices[0], prices[1]) }
            if let context = chat.context { endpoint.contextTokens = context }
            return endpoint
        }
    }

    /// A reflector on each server of the pool, the preferred first (see `chatEndpoints`).
    package func reflectors(environment: [String: String]) throws -> [Reflector] {
        try chatEndpoints(environment: environment).map { Reflector(endpoint: $0, logger: Self.reflectLogger) }
    }

    /// The reflection queue's runner on the pool, tuned as the environment says
    /// (`ReflectionRunner.Options.from`).
    package func reflectionRunner(store: JournalStore, environment: [String: String]) throws -> ReflectionRunner {
        ReflectionRunner(store: store, endpoints: try chatEndpoints(environment: environment),
                         options: .from(environment: environment), logger: Self.reflectLogger)
    }

    private static var reflectLogger: Logger { Logger(label: "voicejournal.reflect") }
}
