import Foundation

/// The command's idea of "now": the real clock, or the instant in `VOICEJOURNAL_NOW`
/// (ISO 8601, e.g. `2026-11-23T09:30:00Z`) so that tests and demos can build a journal
/// over weeks and ask about "today", streaks and "on this day" without waiting for them.
package enum Now {
    /// The current instant as this command sees it.
    package static func date(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        guard let text = environment["VOICEJOURNAL_NOW"], !text.isEmpty else { return Date() }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ISO8601DateFormatter().date(from: text) ?? withFraction.date(from: text) ?? Date()
    }
}
