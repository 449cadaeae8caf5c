import Audio
import Foundation
import Store
import Transcription

/// What the user is told when a command fails, and the exit status: the one place where
/// every library error is given its exit code.
///
/// The contract: 0 success, 1 some work failed (a file, the disk, the database), 2 the user
/// asked for something that cannot be (unknown name, bad input), 3 configuration (no key,
/// refused key, unreachable endpoint, no such capture device), 130 interrupted.
public struct ErrorReport: Sendable, Equatable {
    /// The exit statuses of the command-line contract.
    public enum Status: Int32, Sendable {
        case success = 0
        case failure = 1
        case usage = 2
        case configuration = 3
        case interrupted = 130
    }

    /// One line for stderr (without the program name).
    public let message: String
    public let status: Status

    public init(message: String, status: Status) {
        self.message = message
        self.status = status
    }

    /// The report for `error`. `home` names the data home in storage messages.
    public static func of(_ error: any Error, home: DataHome? = nil) -> ErrorReport {
        switch error {
        case let error as StoreError:
            return ErrorReport(message: error.description, status: status(of: error.kind))
        case let error as TranscriptionError:
            if error.kind == .cancelled { return ErrorReport(message: error.description, status: .interrupted) }
            return ErrorReport(message: error.description,
                               status: error.disposition == .stopRun || error.kind == .unreachable ? .configuration : .failure)
        case let error as ALSAError:
            // A device that cannot be opened or set up is the machine's configuration; one
            // that fails mid-take is a failed recording.
            return ErrorReport(message: error.description, status: error.function == "snd_pcm_readi" ? .failure : .configuration)
        case let error as SoundFileError:
            return ErrorReport(message: error.description, status: .failure)
        case let error as AudioFileProblem:
            // A file that is not audio voicejournal will read: that piece of work failed.
            return ErrorReport(message: error.description, status: .failure)
        case let error as RecordingError:
            // A take or an attached file that could not be kept: that piece of work failed.
            return ErrorReport(message: error.description, status: .failure)
        case let error as ConfigError:
            return ErrorReport(message: error.description, status: .configuration)
        case is CancellationError:
            return ErrorReport(message: "interrupted", status: .interrupted)
        default:
            if let stored = StoreError.classify(error, home: home) {
                return ErrorReport(message: stored.description, status: status(of: stored.kind))
            }
            return ErrorReport(message: String(describing: error), status: .failure)
        }
    }

    static func status(of kind: StoreError.Kind) -> Status {
        kind.isUserMistake ? .usage : .failure
    }
}
