import Foundation
import TOMLKit

extension ConfigFile {
    /// Reads the values of one file's tables, checking each key's name, type and range and
    /// turning what is wrong into a `ConfigError` on the key's line.
    struct TableReader {
        let path: String
        let lines: KeyLines
        let rules: SettingRules

        /// `keys` in the order they stand in the file, so the first problem reported is the
        /// first one a reader meets.
        func ordered(_ keys: [String], in table: String) -> [String] {
            keys.sorted { (lines.line(of: $0, in: table) ?? .max, $0) < (lines.line(of: $1, in: table) ?? .max, $1) }
        }

        func defaults(_ table: TOMLTable) throws(ConfigError) -> Defaults {
            var defaults = Defaults()
            let name = "defaults"
            for key in ordered(table.keys, in: name) {
                let value = table[key]
                switch key {
                case "journal": defaults.journal = try text(value, key, in: name)
                case "device": defaults.device = try text(value, key, in: name)
                case "model": defaults.model = try text(value, key, in: name)
                case "rate":
                    defaults.rate = try integer(value, key, in: name, range: Settings.rates, unit: " Hz")
                case "language":
                    let code = try text(value, key, in: name)
                    guard rules.isLanguageCode(code) else {
                        let meant = rules.languageMeant(code).map { " (for \($0.name) use \"\($0.code)\")" } ?? ""
                        throw invalid(key, in: name, "must be a language code Whisper knows (ISO-639-1, e.g. \"en\", \"de\", \"pl\"; also \"haw\", \"yue\")" + meant)
                    }
                    defaults.language = code.lowercased()
                case "upload_codec":
                    let codec = try text(value, key, in: name)
                    guard let known = rules.uploadCodecs.first(where: { $0 == codec.lowercased() }) else {
                        throw invalid(key, in: name, "must be one of \(rules.uploadCodecs.map { "\"\($0)\"" }.joined(separator: ", "))")
                    }
                    defaults.uploadCodec = known
                case "max_chunk_seconds":
                    guard let seconds = value?.double ?? value?.int.map(Double.init) else {
                        throw wrongType(key, in: name, expected: "a number of seconds", got: value)
                    }
                    guard seconds.isFinite, rules.maxChunkSecondsRange.contains(seconds) else {
                        throw invalid(key, in: name, "must be at least 5 seconds and at most 1000000")
                    }
                    defaults.maxChunkSeconds = seconds
                case "max_request_bytes":
                    let bytes = rules.maxRequestBytesRange
                    defaults.maxRequestBytes = Int64(try integer(value, key, in: name, range: Int(bytes.lowerBound)...Int(bytes.upperBound),
                                                                 unit: " bytes"))
                case "public_url":
                    let url = try text(value, key, in: name)
                    guard rules.isPublicURL(url) else {
                        throw invalid(key, in: name, "must be an http(s) URL such as \"https://journal.example.org\" "
                                      + "(at most \(Settings.longestPublicURL) characters)")
                    }
                    defaults.publicURL = Settings.trimmedURL(url)
                case "asked_by": defaults.askedBy = try text(value, key, in: name)
                case "translate":
                    guard let flag = value?.bool else { throw wrongType(key, in: name, expected: "true or false", got: value) }
                    defaults.translate = flag
                case "encourage":
                    guard let flag = value?.bool else { throw wrongType(key, in: name, expected: "true or false", got: value) }
                    defaults.encourage = flag
                default:
                    throw unknownKey(key, in: name, hint: "")
                }
            }
            return defaults
        }

        func endpoint(_ table: TOMLTable, index: Int) throws(ConfigError) -> EndpointTable {
            let name = "endpoint#\(index)"
            let header = lines.line(ofTable: name)
            guard let baseValue = table["base_url"] else {
                throw ConfigError(kind: .invalidValue, path: path, line: header, message: "[[endpoint]] needs a base_url")
            }
            let baseURL = try text(baseValue, "base_url", in: name)
            guard rules.isHTTPURL(baseURL) else {
                throw invalid("base_url", in: name, "must be an http(s) URL such as \"http://127.0.0.1:8000/v1\"")
            }
            var endpoint = EndpointTable(baseURL: baseURL, line: header)
            for key in ordered(table.keys, in: name) {
                let value = table[key]
                switch key {
                case "base_url": break
                case "model": endpoint.model = try text(value, key, in: name)
                case "api_key_env":
                    let variable = try text(value, key, in: name)
                    guard EndpointTable.isVariableName(variable) else {
                        throw invalid(key, in: name, "must be the name of an environment variable (letters, digits, _), such as \"OPENAI_API_KEY\"; the key itself goes in that variable")
                    }
                    endpoint.apiKeyVariable = variable
                case "concurrency": endpoint.concurrency = try integer(value, key, in: name, range: 1...64, unit: "")
                case "priority": endpoint.priority = try integer(value, key, in: name, range: -1000...1000, unit: "")
                default: throw unknownKey(key, in: name, hint: "")
                }
            }
            return endpoint
        }

        // MARK: - Values

        func text(_ value: TOMLValueConvertible?, _ key: String, in table: String) throws(ConfigError) -> String {
            guard let string = value?.string else { throw wrongType(key, in: table, expected: "a string", got: value) }
            guard !string.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(key, in: table, "must not be empty") }
            return string
        }

        private func integer(_ value: TOMLValueConvertible?, _ key: String, in table: String,
                             range: ClosedRange<Int>, unit: String) throws(ConfigError) -> Int {
            guard let number = value?.int else { throw wrongType(key, in: table, expected: "an integer", got: value) }
            guard range.contains(number) else {
                let bound = range.upperBound == .max ? "at least \(range.lowerBound)\(unit)"
                    : "between \(range.lowerBound) and \(range.upperBound)\(unit)"
                throw invalid(key, in: table, "must be \(bound)")
            }
            return number
        }

        // MARK: - Errors

        func wrongType(_ key: String, in table: String, expected: String, got value: TOMLValueConvertible?) -> ConfigError {
            let actual = value.map { "a \($0.type)" } ?? "nothing"
            return ConfigError(kind: .wrongType, path: path, line: lines.line(of: key, in: table),
                               message: "\"\(key)\" \(Self.shown(table)) must be \(expected), not \(actual)")
        }

        func invalid(_ key: String, in table: String, _ problem: String) -> ConfigError {
            ConfigError(kind: .invalidValue, path: path, line: lines.line(of: key, in: table),
                        message: "\"\(key)\" \(Self.shown(table)) \(problem)")
        }

        /// The error for a key voicejournal does not know; a key that looks like it holds
        /// a secret gets the rule instead: keys live in the environment, named by api_key_env.
        func unknownKey(_ key: String, in table: String, hint: String) -> ConfigError {
            let line = lines.line(of: key, in: table)
            let lowered = key.lowercased()
            if table == "mail", ["key", "token", "secret", "pass", "bearer"].contains(where: lowered.contains) {
                return ConfigError(kind: .keyInFile, path: path, line: line, message:
                    "\"\(key)\" in [mail]: the SMTP password is never written in the config file; "
                    + "set it in the environment variable \(MailTable.passwordVariable)")
            }
            if ["key", "token", "secret", "password", "bearer"].contains(where: lowered.contains) {
                return ConfigError(kind: .keyInFile, path: path, line: line, message:
                    "\"\(key)\" \(Self.shown(table)): API keys are never written in the config file; put the key in an environment variable and name that variable with api_key_env = \"NAME\" in the \(table.hasPrefix("chat") ? "[chat]" : "[[endpoint]]") table")
            }
            return ConfigError(kind: .unknownKey, path: path, line: line,
                               message: "unknown key \"\(key)\" \(Self.shown(table))\(hint)")
        }

        /// A table's name as a message shows it: `in [defaults]`, `in [[endpoint]] 2`.
        private static func shown(_ table: String) -> String {
            if table.isEmpty { return "at the top level" }
            if let mark = table.lastIndex(of: "#"), let index = Int(table[table.index(after: mark)...]) {
                return "in [[\(table[..<mark])]] \(index + 1)"
            }
            return "in [\(table)]"
        }
    }
}
