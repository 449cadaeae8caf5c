import Foundation

/// A month as a calendar, one cell per day shaded by how many entries it has: the heatmap
/// of `stats`. Weeks run Monday to Sunday, as in ISO 8601.
package enum CalendarHeatmap {
    /// Shades from no entries to the busiest day: a dot, then four steps.
    static func shades(_ charset: Charset) -> [Character] {
        charset == .unicode ? ["·", "░", "▒", "▓", "█"] : [".", ":", "+", "*", "#"]
    }

    /// The shade of a day with `count` entries when the busiest day has `busiest`: 0 for
    /// none, else 1…4 in proportion (any entry at all is at least 1).
    static func level(_ count: Int, busiest: Int) -> Int {
        guard count > 0, busiest > 0 else { return 0 }
        return max(1, min(4, Int((Double(count) * 4 / Double(busiest)).rounded(.up))))
    }

    /// The title, the weekday header, one line per week up to today's (each day two shade
    /// characters, a space between days, then the days of the month the line holds: `2–8`)
    /// and a legend. `firstWeekday` is the 1st's weekday, 1 Monday … 7 Sunday.
    package static func render(title: String, firstWeekday: Int, today: Int, entriesPerDay: [Int], charset: Charset) -> [String] {
        let glyphs = shades(charset)
        let busiest = entriesPerDay.max() ?? 0
        var lines = [title, "Mo Tu We Th Fr Sa Su"]
        let blanks = max(firstWeekday - 1, 0)
        var cells = Array(repeating: "  ", count: blanks)
        // The weeks up to today's: days still to come are not drawn.
        for count in entriesPerDay.prefix(max(today, 0)) {
            cells.append(String(repeating: glyphs[level(count, busiest: busiest)], count: 2))
        }
        let dash = charset == .unicode ? "–" : "-"
        for start in stride(from: 0, to: cells.count, by: 7) {
            let week = cells[start..<min(start + 7, cells.count)].joined(separator: " ")
            let first = max(start - blanks, 0) + 1, last = min(start + 7, cells.count) - blanks
            let days = first == last ? "\(first)" : "\(first)\(dash)\(last)"
            lines.append(week.padding(toLength: 20, withPad: " ", startingAt: 0) + "  " + days)
        }
        lines.append("less " + String(glyphs) + " more" + (busiest > 0 ? "  (busiest day: \(busiest) entr\(busiest == 1 ? "y" : "ies"))" : ""))
        return lines
    }
}
