/// Why the config file cannot be used, as one line naming the file and, where known, the
/// line: `/home/me/.config/voicejournal/config.toml line 4: unknown key "modle" in [defaults]`.
/// Every kind is a configuration error (exit 3).
package struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of problem. New kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case syntax, unknownKey, wrongType, invalidValue, keyInFile, unreadable
        }
        private let code: Code

        /// Not TOML: the parser stopped at the line given.
        package static let syntax = Kind(code: .syntax)
        /// A key or table voicejournal does not know (a typo, usually).
        package static let unknownKey = Kind(code: .unknownKey)
        /// A value of the wrong TOML type (a string where a number belongs).
        package static let wrongType = Kind(code: .wrongType)
        /// A value of the right type that cannot work (a rate of 3 Hz, a URL without a host).
        package static let invalidValue = Kind(code: .invalidValue)
        /// Something that looks like an API key: keys live in the environment only.
        package static let keyInFile = Kind(code: .keyInFile)
        /// The file named with `--config` is missing, or a file cannot be read or is not UTF-8.
        package static let unreadable = Kind(code: .unreadable)

        package var description: String { code.rawValue }
    }

    package let kind: Kind
    /// The config file's path as it was given or found.
    package let path: String
    /// The 1-based line the problem is on, when it is known.
    package let line: Int?
    /// What is wrong, without the path and line.
    package let message: String

    package init(kind: Kind, path: String, line: Int?, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.message = message
    }

    package var description: String {
        if let line { return "\(path) line \(line): \(message)" }
        return "\(path): \(message)"
    }
}
