import VoiceJournal
import VoiceJournalPages
import VoiceJournalServer
import VoiceJournalSettings
import VoiceJournalSystem

/// What the user is told when a command fails, and the exit status (`ExitStatus`, the
/// contract): the command's own errors here, the library's by `LibraryFailure`. The
/// executable prints the line and exits with the status.
struct ErrorReport: Sendable, Equatable {
    typealias Status = ExitStatus

    /// One line for stderr (without the program name).
    let message: String
    let status: Status

    init(message: String, status: Status) {
        self.message = message
        self.status = status
    }

    /// The report for `error`. `home` names the data home in storage messages. Errors of no
    /// type named here are read as the store's (a full disk, a read-only home), else as failed
    /// work in their own words.
    static func of(_ error: any Error, home: DataHome? = nil) -> ErrorReport {
        if let report = typed(error) { return report }
        if let stored = StoreError.classify(error, home: home) {
            return ErrorReport(message: stored.description, status: LibraryFailure.status(of: stored.kind))
        }
        return ErrorReport(message: String(describing: error), status: .failure)
    }

    /// The report for an error of a type that has kinds, decided by its kind; nil for any
    /// other error (a caller may first ask others who know it, like the argument parser).
    static func typed(_ error: any Error) -> ErrorReport? {
        switch error {
        case let error as CLIError:
            return ErrorReport(message: error.message, status: error.status)
        case let error as ConfigError:
            return ErrorReport(message: error.description, status: .configuration)
        case let error as NudgeError:
            return ErrorReport(message: error.description, status: error.isConfiguration ? .configuration : .failure)
        case let error as ServeError:
            // Every kind (an address taken, no such host) means the machine cannot serve where asked.
            return ErrorReport(message: error.description, status: .configuration)
        default:
            return LibraryFailure.report(error).map { ErrorReport(message: $0.message, status: $0.status) }
        }
    }
}
