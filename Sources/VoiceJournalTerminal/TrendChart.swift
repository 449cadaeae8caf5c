/// Scores over days as bars on a labelled scale, over a date axis: the mood trend of `stats`.
///
/// ```
/// happy 5 ┤  █
/// good  4 ┤  █     ▄
/// so-so 3 ┤  █ █   █
/// low   2 ┤  █ █   █   █
/// bad   1 ┤  █ █ █ █   █
///         └┬─────┬─────┬
///          Oct 5 Oct 8 Oct 11
/// ```
///
/// One row per score, the lowest at the bottom; a day's bar reaches its score (a fraction of a
/// row as a lower block), a day without a value is blank. Under it each tick marks a day, with
/// its label from there on when there is room.
package enum TrendChart {
    /// A mark on the axis under the value at `index`, labelled `label` when it fits.
    package struct Tick: Sendable, Equatable {
        package var index: Int
        package var label: String

        package init(index: Int, label: String) {
            self.index = index
            self.label = label
        }
    }

    /// The chart's lines: a row per score of `scale` (top to bottom, `names[score]` before the
    /// number when every name fits in `width`), the axis rule and its labels. A day takes two
    /// columns (the bar and a gap) when that fits in `width`, else one. `ticks` are labelled in
    /// the order given (a label that would touch one already placed is left out), so put the
    /// ones that matter most first; every tick gets its mark. Lines end where their last mark is.
    package static func render(_ values: [Double?], scale: ClosedRange<Int>, names: [Int: String], ticks: [Tick],
                               width: Int, charset: Charset) -> [String] {
        let scores = Array(scale.reversed())
        let axis = charset == .unicode ? (row: "┤", corner: "└", rule: "─", tick: "┬") : (row: "|", corner: "+", rule: "-", tick: "+")
        let numbers = scores.map(String.init), numberWidth = numbers.map(\.count).max() ?? 1
        let nameWidth = scores.compactMap { names[$0]?.count }.max() ?? 0
        func chartWidth(label: Int, day: Int) -> Int { label + max(values.count * day - (day - 1), 0) }
        // "grateful, excited 4 ┤": the name, the number, the axis; only the number when the names
        // leave no room for a column a day.
        let named = nameWidth > 0 && chartWidth(label: nameWidth + numberWidth + 3, day: 1) <= width
        let labelWidth = (named ? nameWidth + 1 : 0) + numberWidth + 2
        let day = chartWidth(label: labelWidth, day: 2) <= width ? 2 : 1
        let cells = cellGlyphs(charset)

        var lines: [String] = []
        for (score, number) in zip(scores, numbers) {
            let name = named ? pad(names[score] ?? "", to: nameWidth) + " " : ""
            var line = name + String(repeating: " ", count: numberWidth - number.count) + number + " " + axis.row
            for (offset, value) in values.enumerated() {
                if offset > 0, day == 2 { line += " " }
                line.append(cell(value, score: score, lowest: scale.lowerBound, highest: scale.upperBound, glyphs: cells))
            }
            lines.append(line.trimmingTrailingSpaces())
        }

        // The rule and the labels, in the columns of the bars they mark; a label may run on
        // past the last bar, as far as the width allows.
        let columns = max(values.count * day - (day - 1), 0)
        let room = max(width - labelWidth, columns)
        var rule = Array(repeating: Character(axis.rule), count: columns)
        var labels = Array(repeating: Character(" "), count: room)
        var taken: [Range<Int>] = []
        for tick in ticks where values.indices.contains(tick.index) {
            let column = tick.index * day
            rule[column] = Character(axis.tick)
            let label = Array(tick.label)
            // From the tick on, or ending at the edge when it would run past it.
            let start = max(min(column, room - label.count), 0)
            let span = start..<min(start + label.count, room)
            // A space between two labels: "Oct 5Oct 6" would read as one.
            guard !label.isEmpty, span.count == label.count,
                  !taken.contains(where: { $0.lowerBound <= span.upperBound && span.lowerBound <= $0.upperBound }) else { continue }
            for (offset, character) in label.enumerated() { labels[start + offset] = character }
            taken.append(span)
        }
        let indent = String(repeating: " ", count: labelWidth - 1)
        lines.append(indent + axis.corner + String(rule))
        lines.append((indent + " " + String(labels)).trimmingTrailingSpaces())
        return lines
    }

    /// What a row's cell shows, from empty to full: on UTF-8 the lower eighth blocks, in
    /// ASCII an underscore, an equals sign and a hash.
    static func cellGlyphs(_ charset: Charset) -> [Character] {
        charset == .unicode ? [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : [" ", "_", "=", "#"]
    }

    /// The cell of `score`'s row for `value`: full when the value reaches the score, part of it
    /// when the value is within a row below it (a bar starts full at the lowest score), else empty.
    static func cell(_ value: Double?, score: Int, lowest: Int, highest: Int, glyphs: [Character]) -> Character {
        guard let value, value.isFinite else { return " " }
        let clamped = min(max(value, Double(lowest)), Double(highest))
        let fraction = score == lowest ? 1 : min(max(clamped - Double(score - 1), 0), 1)
        return glyphs[Int((fraction * Double(glyphs.count - 1)).rounded())]
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.count, 0))
    }
}
