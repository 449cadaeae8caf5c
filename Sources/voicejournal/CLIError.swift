/// A failure a command reports in its own words, as one line, with the kind of failure it
/// is: commands name the kind, never a number, and `ErrorReport` gives each kind its exit
/// status.
///
/// Shaped like `TranscriptionError`: a struct over a private code, so new kinds never break
/// callers.
struct CLIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case usage, configuration, failure, interrupted
        }
        private let code: Code

        /// The user asked for something that cannot be (a flag that clashes, a missing file).
        static let usage = Kind(code: .usage)
        /// The machine or the settings cannot do it (no key, no such device, an address taken).
        static let configuration = Kind(code: .configuration)
        /// The work was asked for rightly and could not be done.
        static let failure = Kind(code: .failure)
        /// The user stopped it (Ctrl-C, SIGTERM); what was done is kept.
        static let interrupted = Kind(code: .interrupted)

        var description: String { code.rawValue }
    }

    let kind: Kind
    /// The line for the user (without the program name).
    let message: String

    var description: String { message }

    /// An error of `kind`; `message` is the line the user reads.
    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }
    static func configuration(_ message: String) -> CLIError { CLIError(.configuration, message) }
    static func failure(_ message: String) -> CLIError { CLIError(.failure, message) }
    static func interrupted(_ message: String) -> CLIError { CLIError(.interrupted, message) }
}
