import ArgumentParser
import Foundation
import Logging
import Store

/// Runs the command and maps every error to DESIGN.md's exit codes: 0 success, 1 some work
/// failed, 2 usage error, 3 configuration error, 130 interrupted. argument-parser's own
/// usage errors would exit 64; users and scripts are promised 2.
@main
enum Main {
    static func main() async {
        // Library log lines go to stderr (stdout is for output and --json), errors only unless
        // VOICEJOURNAL_LOG_LEVEL (trace, debug, info, notice, warning, error, critical) says otherwise.
        let level = ProcessInfo.processInfo.environment["VOICEJOURNAL_LOG_LEVEL"]
            .flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .error
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            var command = try Voicejournal.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("voicejournal: \(error.message)\n".utf8))
            exit(error.exitCode)
        } catch let error as StoreError {
            FileHandle.standardError.write(Data("voicejournal: \(error.description)\n".utf8))
            exit(CLIError.usage)
        } catch {
            let code = Voicejournal.exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((Voicejournal.fullMessage(for: error) + "\n").utf8))
                exit(CLIError.usage)
            }
            if code == .failure, !(error is ExitCode) {
                // Errors from the library (ALSA, libsndfile, curl, SQLite) carry their own wording.
                FileHandle.standardError.write(Data("voicejournal: \(Voicejournal.message(for: error))\n".utf8))
                exit(CLIError.failure)
            }
            Voicejournal.exit(withError: error)
        }
    }
}

/// An error to show the user as one line, with the exit code DESIGN.md gives it.
struct CLIError: Error {
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let configuration: Int32 = 3
    static let interrupted: Int32 = 130

    let message: String
    let exitCode: Int32

    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: usage) }
    static func configuration(_ message: String) -> CLIError { CLIError(message: message, exitCode: configuration) }
    static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: failure) }
}
