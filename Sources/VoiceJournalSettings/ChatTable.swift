import Foundation
import TOMLKit

/// The `[chat]` table of the config file: the chat endpoint reflections are asked of, as
/// written and checked. Plain values (Settings depends on no module of ours); the chat
/// module's `ChatEndpoint` says what each does.
///
/// ```toml
/// [chat]
/// base_url = "http://127.0.0.1:8179/v1"
/// model = "SmolLM2-135M-Instruct"
/// schema = "json_object"      # or "json_schema" (OpenAI's); unset: learned from the server
/// api_key_env = "OPENAI_API_KEY"
/// price_input = 0.15          # dollars per million tokens, for the cost kept with each reflection
/// price_output = 0.60
/// reflect = "auto"            # every new entry reflected by the queue; "manual" (the default): `reflect` only
/// embeddings_model = "text-embedding-3-small"   # `ask` ranks by meaning too (POST <url>/embeddings)
/// embeddings_url = "https://api.openai.com/v1"  # default: base_url
/// context = 8192             # tokens the model reads and writes at once; a longer entry is reflected in parts
///
/// [[chat.endpoint]]           # more servers: a pool, tried in priority order, with failover
/// base_url = "https://api.openai.com/v1"
/// model = "gpt-4o-mini"
/// priority = -1
/// ```
///
/// A `[[chat.endpoint]]` table takes the keys of `[chat]` that describe a server, and
/// `priority`; what it leaves out it takes from `[chat]`.
package struct ChatTable: Sendable, Equatable {
    package var baseURL: String?
    package var model: String?
    package var apiKeyVariable: String?
    /// `json_schema` or `json_object`.
    package var schema: String?
    package var priceInput: Double?
    package var priceOutput: Double?
    /// `reflect`: "auto" or "manual" (`[chat]` only).
    package var reflect: String?
    /// `embeddings_model`, `embeddings_url` (`[chat]` only): where `ask` gets vectors.
    package var embeddingsModel: String?
    package var embeddingsURL: String?
    /// `priority` (`[[chat.endpoint]]` only): higher first.
    package var priority = 0
    /// The `[[chat.endpoint]]` tables, in file order (`[chat]` only).
    package var endpoints: [ChatTable] = []
    /// The model's context window in tokens (prompt and answer together).
    package var context: Int?
    /// The line of the table's header, for messages.
    package var line: Int?

    package init() {}

    /// The keys `[chat]` takes.
    static let keys: Set<String> = ["base_url", "model", "api_key_env", "schema", "price_input", "price_output", "reflect", "endpoint",
                                   "embeddings_model", "embeddings_url", "context"]
}

extension ConfigFile.TableReader {
    func chat(_ table: TOMLTable, endpoint index: Int? = nil) throws(ConfigError) -> ChatTable {
        var chat = ChatTable()
        let name = index.map { "chat.endpoint#\($0)" } ?? "chat"
        chat.line = lines.line(ofTable: name)
        if index != nil, table["base_url"] == nil {
            throw ConfigError(kind: .invalidValue, path: path, line: chat.line, message: "[[chat.endpoint]] needs a base_url")
        }
        for key in ordered(table.keys, in: name) {
            let value = table[key]
            switch key {
            case "reflect" where index == nil:
                let mode = try text(value, key, in: name)
                guard ["auto", "manual"].contains(mode) else {
                    throw invalid(key, in: name, "must be \"auto\" (every new entry is reflected on by the queue) or \"manual\"")
                }
                chat.reflect = mode
            case "embeddings_model" where index == nil: chat.embeddingsModel = try text(value, key, in: name)
            case "embeddings_url" where index == nil:
                let url = try text(value, key, in: name)
                guard rules.isHTTPURL(url) else { throw invalid(key, in: name, "must be an http(s) URL such as \"http://127.0.0.1:8179/v1\"") }
                chat.embeddingsURL = Settings.trimmedURL(url)
            case "endpoint" where index == nil:
                guard let tables = value?.array else { throw wrongType(key, in: name, expected: "a list of tables ([[chat.endpoint]])", got: value) }
                for number in 0..<tables.count {
                    guard let member = tables[number].table else {
                        throw wrongType(key, in: name, expected: "a list of tables ([[chat.endpoint]])", got: tables[number])
                    }
                    chat.endpoints.append(try self.chat(member, endpoint: number))
                }
            case "priority" where index != nil:
                guard let number = value?.int else { throw wrongType(key, in: name, expected: "an integer", got: value) }
                guard (-1000...1000).contains(number) else { throw invalid(key, in: name, "must be between -1000 and 1000") }
                chat.priority = number
            case "base_url":
                let url = try text(value, key, in: name)
                guard rules.isHTTPURL(url) else { throw invalid(key, in: name, "must be an http(s) URL such as \"http://127.0.0.1:8179/v1\"") }
                chat.baseURL = Settings.trimmedURL(url)
            case "model": chat.model = try text(value, key, in: name)
            case "api_key_env":
                let variable = try text(value, key, in: name)
                guard EndpointTable.isVariableName(variable) else {
                    throw invalid(key, in: name, "must be the name of an environment variable (letters, digits, _); the key itself goes in that variable")
                }
                chat.apiKeyVariable = variable
            case "schema":
                let form = try text(value, key, in: name)
                guard ["json_schema", "json_object"].contains(form) else { throw invalid(key, in: name, "must be \"json_schema\" or \"json_object\"") }
                chat.schema = form
            case "price_input", "price_output":
                guard let price = value?.double ?? value?.int.map(Double.init) else {
                    throw wrongType(key, in: name, expected: "dollars per million tokens", got: value)
                }
                guard price.isFinite, price >= 0, price <= 10_000 else { throw invalid(key, in: name, "must be 0 or more dollars per million tokens") }
                if key == "price_input" { chat.priceInput = price } else { chat.priceOutput = price }
            case "context" where index == nil:
                // At least 1024: a reflection's answer alone may take 700 tokens.
                guard let tokens = value?.int else { throw wrongType(key, in: name, expected: "a whole number of tokens", got: value) }
                guard (1024...10_000_000).contains(tokens) else {
                    throw invalid(key, in: name, "must be the model's context window in tokens, from 1024 to 10000000 (the local server's is 8192)")
                }
                chat.context = tokens
            default:
                throw unknownKey(key, in: name, hint: "")
            }
        }
        return chat
    }
}
