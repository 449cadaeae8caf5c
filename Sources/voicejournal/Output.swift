import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// A command or option group with a `--json` flag, whatever its help says.
protocol JSONOutput {
    var json: Bool { get }
}

/// `--json` for every listing.
struct OutputOptions: ParsableArguments, JSONOutput {
    @Flag(name: .long, help: "Print one JSON document on stdout instead of text.")
    var json = false
}

/// Prints a value as one pretty JSON document (ISO 8601 dates, stable key order).
func printJSON<Value: Encodable>(_ value: Value) throws {
    print(try JSONText.encode(value))
}

extension JSONOutput {
    /// Prints `value` as one JSON document with `--json`, else as `text` makes it.
    func show<Value: Encodable>(_ value: Value, _ text: (Value) throws -> String) throws {
        if json { return try printJSON(value) }
        print(try text(value))
    }

    /// Colours in human output: not `--json`, standard output a terminal, `NO_COLOR` unset.
    var color: Bool { !json && TerminalInfo.detect(fileDescriptor: STDOUT_FILENO).color }
}

extension Mood: ExpressibleByArgument {}
extension Theme: ExpressibleByArgument {}
extension EntryKind: ExpressibleByArgument {}
extension AssignmentStatus: ExpressibleByArgument {}

/// `--since`, `--until`, `--date`, read against the command's "now".
extension PointInTime: ExpressibleByArgument {
    package init?(argument: String) { self.init(argument, now: Now.date()) }
    package static var defaultValueDescription: String { "YYYY-MM-DD[THH:MM]" }
}

/// A line of encouragement, for a person at a terminal only: standard output piped or in a
/// file is what a script reads (a take's transcript, an entry's number), and stays that.
func printEncouragement(_ line: String) {
    guard isatty(STDOUT_FILENO) == 1 else { return }
    print(line)
}

/// One line on stdout at once, not when a buffer fills: a server's output is read as it happens.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The process's environment (settings and secrets are read from it).
var environment: [String: String] { ProcessInfo.processInfo.environment }

/// Prints each line on stdout.
func printLines(_ lines: [String]) { lines.forEach { print($0) } }
