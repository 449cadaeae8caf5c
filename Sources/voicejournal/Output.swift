import ArgumentParser
import Foundation
import Store
import Terminal

/// `--json` for every listing.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document on stdout instead of text.")
    var json = false
}

/// Prints a value as one pretty JSON document (ISO 8601 dates, stable key order).
func printJSON<Value: Encodable>(_ value: Value) throws {
    print(try JSONText.encode(value))
}

/// Short local date and time for tables: "2026-11-22 09:41".
func shortDate(_ date: Date) -> String {
    shortDateFormatter.string(from: date)
}

/// Made once: making a formatter (an ICU one underneath) costs more than formatting a
/// table's every date with it. Foundation's formatter is Sendable and locks its own state.
private let shortDateFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter
}()

extension Mood: ExpressibleByArgument {}
extension Theme: ExpressibleByArgument {}
extension EntryKind: ExpressibleByArgument {}
extension AssignmentStatus: ExpressibleByArgument {}

/// A point in time given on the command line: `2026-11-22`, `2026-11-22T09:30`,
/// `2026-11-22 09:30`, full ISO 8601, `today` or `yesterday` — local time unless a zone is given.
struct DateArgument: ExpressibleByArgument, Sendable {
    let date: Date
    /// True when only a day was given, so `--until 2026-11-22` can include that whole day.
    let isWholeDay: Bool

    init?(argument: String) {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        switch argument.lowercased() {
        case "today":
            (date, isWholeDay) = (today, true)
            return
        case "yesterday":
            guard let day = calendar.date(byAdding: .day, value: -1, to: today) else { return nil }
            (date, isWholeDay) = (day, true)
            return
        default:
            break
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        for (format, wholeDay) in [("yyyy-MM-dd", true), ("yyyy-MM-dd'T'HH:mm", false), ("yyyy-MM-dd HH:mm", false),
                                   ("yyyy-MM-dd'T'HH:mm:ss", false), ("yyyy-MM-dd HH:mm:ss", false)] {
            formatter.dateFormat = format
            if let parsed = formatter.date(from: argument) {
                (date, isWholeDay) = (parsed, wholeDay)
                return
            }
        }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let parsed = iso.date(from: argument) ?? ISO8601DateFormatter().date(from: argument) {
            (date, isWholeDay) = (parsed, false)
            return
        }
        return nil
    }

    /// The end of the period the argument names: the next midnight for a whole day.
    var endOfPeriod: Date {
        isWholeDay ? (Calendar.current.date(byAdding: .day, value: 1, to: date) ?? date) : date
    }

    static var defaultValueDescription: String { "YYYY-MM-DD[THH:MM]" }
}
