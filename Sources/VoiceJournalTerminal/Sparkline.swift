/// A series of values as one line of characters, one per value, taller for more: the mood
/// trend of `stats`.
package enum Sparkline {
    /// Eight heights of block on UTF-8, five characters in ASCII.
    static func levels(_ charset: Charset) -> [Character] {
        charset == .unicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : ["_", ".", "-", "=", "#"]
    }

    /// One character per value, scaled from `range.lowerBound` (lowest glyph) to
    /// `range.upperBound` (highest); a missing value (a day without a mood) is a space.
    package static func render(_ values: [Double?], range: ClosedRange<Double>, charset: Charset) -> String {
        let glyphs = levels(charset)
        let span = range.upperBound - range.lowerBound
        return String(values.map { value -> Character in
            guard let value, value.isFinite else { return " " }
            let fraction = span > 0 ? (min(max(value, range.lowerBound), range.upperBound) - range.lowerBound) / span : 0
            return glyphs[Int((fraction * Double(glyphs.count - 1)).rounded())]
        })
    }
}
