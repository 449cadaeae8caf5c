/// Words that start with a dash but are no option. voicejournal has no short options besides
/// -h, so argument-parser reads `search -hello` as `-h -e -l -l -o` and prints the help with
/// exit 0; such a word is caught before parsing and told how to pass it.
package enum DashedWords {
    /// The usage error's line for the first such word before a `--`, if any.
    package static func mistake(in arguments: [String]) -> String? {
        var command: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return nil }
            if command == nil, !argument.hasPrefix("-"), index == 0 || arguments[index - 1] != "--home" { command = argument }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2,
                  Double(argument) == nil else { continue }
            if command == "search" {
                return "\(argument) is not an option; to search for it, put it after --: voicejournal search -- \(argument)"
            }
            return "\(argument) is not an option; a value that starts with - goes as --option=\(argument), words after --"
        }
        return nil
    }
}
