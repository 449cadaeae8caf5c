/// A failure a command reports in its own words, as one line, with the kind of failure it
/// is: commands name the kind, never a number, and `ErrorReport` gives each kind its exit
/// status.
///
/// Shaped like `TranscriptionError`: a struct over a private code, so new kinds never break
/// callers.
public struct CLIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case usage, configuration, failure, interrupted
        }
        private let code: Code

        /// The user asked for something that cannot be (a flag that clashes, a missing file).
        public static let usage = Kind(code: .usage)
        /// The machine or the settings cannot do it (no key, no such device, an address taken).
        public static let configuration = Kind(code: .configuration)
        /// The work was asked for rightly and could not be done.
        public static let failure = Kind(code: .failure)
        /// The user stopped it (Ctrl-C, SIGTERM); what was done is kept.
        public static let interrupted = Kind(code: .interrupted)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The line for the user (without the program name).
    public let message: String

    public var description: String { message }

    /// An error of `kind`; `message` is the line the user reads.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }
    public static func configuration(_ message: String) -> CLIError { CLIError(.configuration, message) }
    public static func failure(_ message: String) -> CLIError { CLIError(.failure, message) }
    public static func interrupted(_ message: String) -> CLIError { CLIError(.interrupted, message) }
}
