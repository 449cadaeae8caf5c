import Foundation

/// Dates as voicejournal's listings show them: local time, to the minute.
package enum LocalDate {
    /// Short local date and time for tables and documents: "2026-11-22 09:41".
    package static func short(_ date: Date) -> String {
        formatter.string(from: date)
    }

    /// Made once: making a formatter (an ICU one underneath) costs more than formatting a
    /// table's every date with it. Foundation's formatter is Sendable and locks its own state.
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
}
