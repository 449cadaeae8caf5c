import Foundation
import TOMLKit

/// The `[nudge]` table of the config file: when `voicejournal nudge` may nudge, and what it says.
///
/// ```toml
/// [nudge]
/// after = "20:00"      # local time; before it, nudge sends nothing (its timer may run earlier and often)
/// message = "Two minutes about today?"   # the notification's (or email's) text
/// ```
package struct NudgeTable: Sendable, Equatable {
    /// `after`, in minutes after local midnight ("20:00" is 1200).
    package var after: Int?
    package var message: String?
    /// The line of the table's header, for messages.
    package var line: Int?

    package init() {}

    /// The keys `[nudge]` takes.
    static let keys: Set<String> = ["after", "message"]

    /// The longest message taken: a notification shows a line or two.
    package static let longestMessage = 300

    /// "HH:MM" (24-hour, 00:00 to 23:59) as minutes after midnight; nil when it is not one.
    package static func minutes(_ text: String) -> Int? {
        guard let match = text.wholeMatch(of: /([01]?\d|2[0-3]):([0-5]\d)/), let hours = Int(match.1), let minutes = Int(match.2) else {
            return nil
        }
        return hours * 60 + minutes
    }

    /// Minutes after midnight as "HH:MM".
    package static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}

extension ConfigFile.TableReader {
    func nudge(_ table: TOMLTable) throws(ConfigError) -> NudgeTable {
        var nudge = NudgeTable()
        let name = "nudge"
        nudge.line = lines.line(ofTable: name)
        for key in ordered(table.keys, in: name) {
            let value = table[key]
            switch key {
            case "after":
                let text = try text(value, key, in: name)
                guard let minutes = NudgeTable.minutes(text.trimmingCharacters(in: .whitespaces)) else {
                    throw invalid(key, in: name, "must be a local time of day, \"HH:MM\" (24-hour), such as \"20:00\"")
                }
                nudge.after = minutes
            case "message":
                let text = try text(value, key, in: name)
                guard text.count <= NudgeTable.longestMessage else {
                    throw invalid(key, in: name, "must be at most \(NudgeTable.longestMessage) characters (a notification shows a line or two)")
                }
                nudge.message = text
            default:
                throw unknownKey(key, in: name, hint: "")
            }
        }
        return nudge
    }
}
