import VoiceJournalSystem

/// The exit statuses of the command line's contract: 0 success, 1 some work failed (a file,
/// the disk, the database), 2 the user asked for something that cannot be (unknown name,
/// bad input), 3 configuration (no key, refused key, unreachable endpoint, no such capture
/// device), 130 interrupted.
package enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case configuration = 3
    case interrupted = 130
}

/// What the user is told when the library fails, and the exit status: every error type of
/// the library that has kinds is given its status here, by its type and kind (never by its
/// text). The command adds its own (its usage errors, the config file's, `serve`'s).
package enum LibraryFailure {
    /// The line and status for `error`; nil for an error of no type named here.
    package static func report(_ error: any Error) -> (message: String, status: ExitStatus)? {
        switch error {
        case let error as StoreError:
            return (error.description, status(of: error.kind))
        case let error as TranscriptionError:
            return (error.description, status(of: error))
        case let error as ChatError:
            return (error.description, error.kind == .cancelled ? .interrupted
                    : error.disposition == .stopRun || error.kind == .unreachable ? .configuration : .failure)
        case let error as MailError:
            // An address that is no address is a mistake in what was asked; the settings, a
            // refused login or certificate, a server out of reach or deferring are the
            // configuration's; a message refused (or perhaps sent) is failed work.
            if error.kind == .invalidAddress || error.kind == .invalidMessage { return (error.description, .usage) }
            return (error.description, error.isConfiguration ? .configuration : .failure)
        case let error as ReflectionError:
            return (error.description, error.isConfiguration ? .configuration : .failure)
        case let error as ALSAError:
            // A device that cannot be found, opened or set up is the machine's configuration;
            // one that stops delivering mid-take (or taking mid-play) is failed work.
            let midway = error.kind == .read || error.kind == .write || error.kind == .drain
            return (error.description, midway ? .failure : .configuration)
        case is SoundFileError, is AudioFileProblem, is RecordingError, is ResamplerError, is DigestError, is EditorError:
            // A file that is not audio voicejournal will read, a take or an attached file that
            // could not be kept, a conversion or digest that failed, an editor that failed or left
            // nothing to take (that correction was not made): that piece of work failed.
            return (String(describing: error), .failure)
        case let error as PlayTargetError:
            // An id that names nothing, or a start past the end (`--at`), is a mistake in what
            // was asked (as `entry show` has it); an entry or answer with nothing to play is
            // work that cannot be done.
            let unknown = [.noSuchEntry, .noSuchRecording, .noSuchAssignment, .pastEnd].contains(error.kind)
            return (error.description, unknown ? .usage : .failure)
        case is CancellationError:
            return ("interrupted", .interrupted)
        default:
            return nil
        }
    }

    /// A refused key, no quota, no such endpoint or a server out of reach stops the whole run:
    /// a configuration error. A transfer stopped on purpose is an interruption; anything else
    /// failed that piece of work.
    package static func status(of error: TranscriptionError) -> ExitStatus {
        if error.kind == .cancelled { return .interrupted }
        return error.disposition == .stopRun || error.kind == .unreachable ? .configuration : .failure
    }

    package static func status(of kind: StoreError.Kind) -> ExitStatus {
        kind.isUserMistake ? .usage : .failure
    }
}
