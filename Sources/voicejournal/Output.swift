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
    LocalDate.short(date)
}

extension OutputOptions {
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

/// A point in time given on the command line: `2026-11-22`, `2026-11-22T09:30`,
/// `2026-11-22 09:30`, full ISO 8601, `today` or `yesterday` — local time unless a zone is
/// given — or a time back from now (`Now`): `7d` days, `2w` weeks, `3m` months, `1y` years.
struct DateArgument: ExpressibleByArgument, Sendable {
    let date: Date
    /// True when only a day was given, so `--until 2026-11-22` can include that whole day.
    let isWholeDay: Bool

    init?(argument: String) {
        let calendar = Calendar.current
        let now = Now.date()
        let today = calendar.startOfDay(for: now)
        if let ago = Self.timeAgo(argument, from: now, calendar: calendar) {
            (date, isWholeDay) = (ago, false)
            return
        }
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

    /// `7d`, `2w`, `3m`, `1y` back from `now`, by the calendar (a month back from 31 March is
    /// the last day of February); nil for anything else.
    static func timeAgo(_ argument: String, from now: Date, calendar: Calendar) -> Date? {
        guard let unit = argument.last, let count = Int(argument.dropLast()), count >= 0 else { return nil }
        let component: Calendar.Component
        switch unit {
        case "d": component = .day
        case "w": component = .weekOfYear
        case "m": component = .month
        case "y": component = .year
        default: return nil
        }
        return calendar.date(byAdding: component, value: -count, to: now)
    }

    /// The end of the period the argument names: the next midnight for a whole day.
    var endOfPeriod: Date {
        isWholeDay ? (Calendar.current.date(byAdding: .day, value: 1, to: date) ?? date) : date
    }

    static var defaultValueDescription: String { "YYYY-MM-DD[THH:MM]" }
}

/// One line on stdout at once, not when a buffer fills: a server's output is read as it happens.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
