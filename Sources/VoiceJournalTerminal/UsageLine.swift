import Foundation

/// A command-line parser's usage error (unknown options, missing or bad values, a failed
/// validation) as one line, like every other error: its message, with a list of allowed values
/// run together, and where to read the command's help. The parser's own form (an `Error:`
/// line, a `Help:` line and the usage) would differ in style from every other error and break
/// scripts that read the first line.
package enum UsageLine {
    /// `message` made one line, then `(see 'voicejournal <command> --help')`, the command read
    /// from the last line of `usage` that names it (else the program's own help).
    package static func make(message: String, usage: String) -> String {
        let line = message
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .reduce(into: "") { line, part in
                // "Please provide one of the following:" and then "- happy", "- sad", …
                if part.hasPrefix("- ") {
                    line += (line.hasSuffix(":") ? " " : ", ") + part.dropFirst(2)
                } else {
                    line += line.isEmpty ? part : " " + part
                }
            }
        let help = helpCommand(in: usage)
        return line.isEmpty ? "see '\(help)'" : "\(line) (see '\(help)')"
    }

    private static func helpCommand(in usage: String) -> String {
        for line in usage.split(whereSeparator: \.isNewline).reversed() {
            guard let start = line.range(of: "See '"), let end = line[start.upperBound...].firstIndex(of: "'") else { continue }
            return String(line[start.upperBound..<end])
        }
        return "voicejournal --help"
    }
}
