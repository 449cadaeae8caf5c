import ArgumentParser
import VoiceJournalCMalloc
import Foundation
import Logging
import VoiceJournalSettings
import VoiceJournalTerminal

/// Runs the command and maps every error to the documented exit codes: 0 success, 1 some work
/// failed, 2 usage error, 3 configuration error, 130 interrupted. argument-parser's own
/// usage errors would exit 64; users and scripts are promised 2.
@main
enum Main {
    static func main() async {
        keepFreedMemory()
        // Library log lines go to stderr (stdout is for output and --json), errors only unless
        // VOICEJOURNAL_LOG_LEVEL (trace, debug, info, notice, warning, error, critical) says otherwise.
        // getenv, not ProcessInfo's environment, which copies all of it into a dictionary first.
        let level = getenv("VOICEJOURNAL_LOG_LEVEL").map { String(cString: $0) }
            .flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .error
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let mistake = DashedWords.mistake(in: arguments) { throw CLIError.usage(mistake) }
            var command = try Voicejournal.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let (message, status) = report(error)
            if let message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            exit(status)
        }
    }

    /// Memory a run frees is kept for reuse instead of going back to the kernel at once: a
    /// batch frees and allocates the same buffers (SQLite's page caches, upload buffers) for
    /// every file, and handing them back makes each file fault its pages in again
    /// (docs/benchmarks.md, start-up costs, has the numbers).
    private static func keepFreedMemory() {
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
        _ = mallopt(M_TOP_PAD, 8 << 20)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
    }

    /// The line to print (nil for none) and the exit status for any error a command throws.
    /// `ErrorReport` decides every typed error by its kind; argument-parser's own errors
    /// (usage mistakes, --help, --version) are classified by the parser. Messages quote file
    /// names and servers' words, so they come back safe for the terminal: one line each,
    /// argument-parser's usage errors too.
    static func report(_ error: any Error) -> (message: String?, status: Int32) {
        if let error = error as? ExitCode {
            // Already reported by the command; argument-parser's validation code means usage.
            return (nil, error == .validationFailure ? ErrorReport.Status.usage.rawValue : error.rawValue)
        }
        if let report = ErrorReport.typed(error) {
            return (stderrLine(report.message), report.status.rawValue)
        }
        let code = Voicejournal.exitCode(for: error)
        if code == .validationFailure { // one line, like every other error
            let usage = Voicejournal.fullMessage(for: error, columns: 10_000)
            return (stderrLine(UsageLine.make(message: Voicejournal.message(for: error), usage: usage)), ErrorReport.Status.usage.rawValue)
        }
        if code == .success {
            // --help and --version: argument-parser's own text on stdout.
            print(Voicejournal.fullMessage(for: error))
            return (nil, 0)
        }
        let report = ErrorReport.of(error)
        return (stderrLine(report.message), report.status.rawValue)
    }
}

/// For commands that have reported their failure themselves and throw argument-parser's
/// `ExitCode`: they name the kind of failure, never a number.
extension ExitCode {
    init(_ status: ErrorReport.Status) { self.init(status.rawValue) }
}
