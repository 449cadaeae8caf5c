import Foundation
import TOMLKit

/// The settings a `config.toml` gives: a `[defaults]` table, any number of `[[endpoint]]`
/// tables, a `[chat]` and a `[mail]` table. Everything in it is checked when it is read: a syntax error, an
/// unknown key, a value of the wrong type or an API key written into the file is a
/// `ConfigError` naming the file and the line.
///
/// ```toml
/// [defaults]
/// journal = "Family stories"
/// model = "whisper-1"
///
/// [[endpoint]]
/// base_url = "http://127.0.0.1:8000/v1"
/// concurrency = 2
/// ```
package struct ConfigFile: Sendable, Equatable {
    /// The values of the `[defaults]` table; nil for each key the file leaves out.
    package struct Defaults: Sendable, Equatable {
        package var journal: String?
        package var device: String?
        package var rate: Int?
        package var model: String?
        package var language: String?
        /// An upload codec's name, one of `SettingRules.uploadCodecs`.
        package var uploadCodec: String?
        package var maxChunkSeconds: Double?
        package var maxRequestBytes: Int64?
        /// Where `serve` is reached from outside, e.g. "https://journal.example.org".
        package var publicURL: String?
        /// The name the answer page shows as the one asking.
        package var askedBy: String?
        /// Translate every recording to English as well (`translate = true`).
        package var translate: Bool?
        /// `encourage`: a line of encouragement after `record` and `entry add`.
        package var encourage: Bool?

        package init() {}
    }

    /// The file's path, as given or found.
    package let path: String
    package var defaults: Defaults
    /// The `[[endpoint]]` tables in file order.
    package var endpoints: [EndpointTable]
    /// The `[chat]` table; nil when the file has none.
    package var chat: ChatTable?
    /// The `[mail]` table; nil when the file has none.
    package var mail: MailTable?
    /// The `[nudge]` table; nil when the file has none.
    package var nudge: NudgeTable?

    package init(path: String, defaults: Defaults = Defaults(), endpoints: [EndpointTable] = []) {
        self.path = path
        self.defaults = defaults
        self.endpoints = endpoints
    }

    /// Where the file is looked for when `--config` does not say: `$XDG_CONFIG_HOME/voicejournal/config.toml`,
    /// else `~/.config/voicejournal/config.toml`.
    package static func defaultURL(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("voicejournal/config.toml")
        }
        let user = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return user.appendingPathComponent(".config/voicejournal/config.toml")
    }

    /// What reading the file's path found: its bytes (at most `largestBytes`), nothing, or
    /// something that cannot be used, in words that follow its path ("is a FIFO, not a regular file").
    package enum Contents: Sendable {
        case data(Data)
        case missing
        case unusable(String)
    }

    /// Checks the file at `path`, as the caller read it: read as data, so that a FIFO or a
    /// device in its place is refused, not waited on or read without end, and a file past
    /// `largestBytes` is refused before it is parsed. A missing file is nil unless `required`
    /// (a file named with `--config`), when it is an error like any other.
    package static func load(_ contents: Contents, path: String, required: Bool, rules: SettingRules) throws(ConfigError) -> ConfigFile? {
        let data: Data
        switch contents {
        case .data(let read): data = read
        case .missing:
            if !required { return nil }
            throw ConfigError(kind: .unreadable, path: path, line: nil, message: "no such file")
        case .unusable(let why):
            throw ConfigError(kind: .unreadable, path: path, line: nil, message: why)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(kind: .unreadable, path: path, line: nil, message: "is not UTF-8 text")
        }
        return try parse(text, path: path, rules: rules)
    }

    /// The largest config file read: a config file holds a few dozen settings; a bigger one is
    /// a mistake (or an attack on the parser's memory), refused at once.
    package static let largestBytes = 1 << 20

    /// Parses and checks a config file's text against `rules`; `path` is only for messages.
    package static func parse(_ text: String, path: String, rules: SettingRules) throws(ConfigError) -> ConfigFile {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(kind: .syntax, path: path, line: error.source.begin.line, message: error.description)
        } catch {
            throw ConfigError(kind: .syntax, path: path, line: nil, message: "not TOML: \(error)")
        }
        let reader = TableReader(path: path, lines: KeyLines(text), rules: rules)
        var file = ConfigFile(path: path)
        for key in reader.ordered(root.keys, in: "") {
            switch key {
            case "defaults":
                guard let table = root[key]?.table else { throw reader.wrongType(key, in: "", expected: "a table ([defaults])", got: root[key]) }
                file.defaults = try reader.defaults(table)
            case "endpoint":
                guard let tables = root[key]?.array else {
                    throw reader.wrongType(key, in: "", expected: "a list of tables ([[endpoint]])", got: root[key])
                }
                for index in 0..<tables.count {
                    guard let table = tables[index].table else {
                        throw reader.wrongType(key, in: "", expected: "a list of tables ([[endpoint]])", got: tables[index])
                    }
                    file.endpoints.append(try reader.endpoint(table, index: index))
                }
            case "chat":
                guard let table = root[key]?.table else { throw reader.wrongType(key, in: "", expected: "a table ([chat])", got: root[key]) }
                file.chat = try reader.chat(table)
            case "mail":
                guard let table = root[key]?.table else { throw reader.wrongType(key, in: "", expected: "a table ([mail])", got: root[key]) }
                file.mail = try reader.mail(table)
            case "nudge":
                guard let table = root[key]?.table else { throw reader.wrongType(key, in: "", expected: "a table ([nudge])", got: root[key]) }
                file.nudge = try reader.nudge(table)
            default:
                let hint = Defaults.keys.contains(key) ? "; put it under [defaults]"
                    : NudgeTable.keys.contains(key) ? "; put it under [nudge]"
                    : "; the file holds [defaults], [[endpoint]], [chat], [mail] and [nudge] tables"
                throw reader.unknownKey(key, in: "", hint: hint)
            }
        }
        return file
    }
}

extension ConfigFile.Defaults {
    /// The keys `[defaults]` takes.
    static let keys: Set<String> = [
        "journal", "device", "rate", "model", "language", "upload_codec", "max_chunk_seconds", "max_request_bytes",
        "public_url", "asked_by", "translate", "encourage",
    ]
}
