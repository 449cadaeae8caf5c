import Foundation

/// The local date and time tables and pages show: `2026-11-22 09:41`.
public enum ShortDate {
    /// `date` in the local time zone, to the minute.
    public static func text(_ date: Date) -> String {
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
