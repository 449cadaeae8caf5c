/// A failure a command reports in its own words, as one line, with the kind of failure it
/// is: commands name the kind, never a number, and the kind is its exit status
/// (`ErrorReport.Status`).
struct CLIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kind of failure, which is the exit status.
    let status: ErrorReport.Status
    /// The line for the user (without the program name).
    let message: String

    var description: String { message }

    /// The user asked for something that cannot be (a flag that clashes, a missing file).
    static func usage(_ message: String) -> CLIError { CLIError(status: .usage, message: message) }
    /// The machine or the settings cannot do it (no key, no such device, an address taken).
    static func configuration(_ message: String) -> CLIError { CLIError(status: .configuration, message: message) }
    /// The work was asked for rightly and could not be done.
    static func failure(_ message: String) -> CLIError { CLIError(status: .failure, message: message) }
    /// The user stopped it (Ctrl-C, SIGTERM); what was done is kept.
    static func interrupted(_ message: String) -> CLIError { CLIError(status: .interrupted, message: message) }
}
