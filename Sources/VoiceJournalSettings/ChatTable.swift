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
/// context = 8192             # tokens the model reads and writes at once; a longer entry is reflected in parts
/// ```
package struct ChatTable: Sendable, Equatable {
    package var baseURL: String?
    package var model: String?
    package var apiKeyVariable: String?
    /// `json_schema` or `json_object`.
    package var schema: String?
    package var priceInput: Double?
    package var priceOutput: Double?
    /// The model's context window in tokens (prompt and answer together).
    package var context: Int?
    /// The line of the table's header, for messages.
    package var line: Int?

    package init() {}

    /// The keys `[chat]` takes.
    static let keys: Set<String> = ["base_url", "model", "api_key_env", "schema", "price_input", "price_output", "context"]
}

extension ConfigFile.TableReader {
    func chat(_ table: TOMLTable) throws(ConfigError) -> ChatTable {
        var chat = ChatTable()
        let name = "chat"
        chat.line = lines.line(ofTable: name)
        for key in ordered(table.keys, in: name) {
            let value = table[key]
            switch key {
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
            case "context":
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
