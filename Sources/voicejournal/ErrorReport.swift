import VoiceJournal
import VoiceJournalServer
import VoiceJournalSettings
import VoiceJournalSystem

/// What the user is told when a command fails, and the exit status: the one place where
/// every error a command can meet is given its exit code, by its type and kind (never by
/// its text). The executable prints the line and exits with the status.
///
/// The contract: 0 success, 1 some work failed (a file, the disk, the database), 2 the user
/// asked for something that cannot be (unknown name, bad input), 3 configuration (no key,
/// refused key, unreachable endpoint, no such capture device), 130 interrupted.
struct ErrorReport: Sendable, Equatable {
    /// The exit statuses of the command-line contract.
    enum Status: Int32, Sendable {
        case success = 0
        case failure = 1
        case usage = 2
        case configuration = 3
        case interrupted = 130
    }

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
            return ErrorReport(message: stored.description, status: status(of: stored.kind))
        }
        return ErrorReport(message: String(describing: error), status: .failure)
    }

    /// The report for an error of a type that has kinds, decided by its kind; nil for any
    /// other error (a caller may first ask others who know it, like the argument parser).
    static func typed(_ error: any Error) -> ErrorReport? {
        switch error {
        case let error as CLIError:
            return ErrorReport(message: error.message, status: error.status)
        case let error as StoreError:
            return ErrorReport(message: error.description, status: status(of: error.kind))
        case let error as TranscriptionError:
            return ErrorReport(message: error.description, status: status(of: error))
        case let error as ChatError:
            return ErrorReport(message: error.description, status: error.kind == .cancelled ? .interrupted
                               : error.disposition == .stopRun || error.kind == .unreachable ? .configuration : .failure)
        case let error as ReflectionError:
            return ErrorReport(message: error.description, status: error.isConfiguration ? .configuration : .failure)
        case let error as ConfigError:
            return ErrorReport(message: error.description, status: .configuration)
        case let error as ALSAError:
            // A device that cannot be found, opened or set up is the machine's configuration;
            // one that stops delivering mid-take (or taking mid-play) is failed work.
            let midway = error.kind == .read || error.kind == .write || error.kind == .drain
            return ErrorReport(message: error.description, status: midway ? .failure : .configuration)
        case is SoundFileError, is AudioFileProblem, is RecordingError, is ResamplerError, is DigestError, is EditorError:
            // A file that is not audio voicejournal will read, a take or an attached file that
            // could not be kept, a conversion or digest that failed, an editor that failed or left
            // nothing to take (that correction was not made): that piece of work failed.
            return ErrorReport(message: String(describing: error), status: .failure)
        case let error as PlayTargetError:
            // An id that names nothing is a mistake in what was asked (as `entry show` has it);
            // an entry or answer with nothing to play is work that cannot be done.
            // A start past the end (`--at`) is a mistake in what was asked too.
            let unknown = [.noSuchEntry, .noSuchRecording, .noSuchAssignment, .pastEnd].contains(error.kind)
            return ErrorReport(message: error.description, status: unknown ? .usage : .failure)
        case let error as ServeError:
            // Every kind (an address taken, no such host) means the machine cannot serve where asked.
            return ErrorReport(message: error.description, status: .configuration)
        case is CancellationError:
            return ErrorReport(message: "interrupted", status: .interrupted)
        default:
            return nil
        }
    }

    /// A refused key, no quota, no such endpoint or a server out of reach stops the whole run:
    /// a configuration error. A transfer stopped on purpose is an interruption; anything else
    /// failed that piece of work.
    static func status(of error: TranscriptionError) -> Status {
        if error.kind == .cancelled { return .interrupted }
        return error.disposition == .stopRun || error.kind == .unreachable ? .configuration : .failure
    }

    static func status(of kind: StoreError.Kind) -> Status {
        kind.isUserMistake ? .usage : .failure
    }
}
