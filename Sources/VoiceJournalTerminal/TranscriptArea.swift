/// The transcript that grows under the live meter while recording: each piece's text, wrapped
/// by words to fit the terminal so the meter above can be redrawn by moving the cursor up
/// exactly as many lines as were printed.
package struct TranscriptArea: Sendable, Equatable {
    /// Lines printed so far under the meter.
    package private(set) var lineCount = 0

    package init() {}

    /// The text to write, with the cursor on the meter line, to print `lines` (already
    /// escaped, each shorter than the terminal) under what is there and come back to the
    /// meter line.
    package mutating func append(_ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        var text = String(repeating: "\n", count: lineCount)
        for line in lines { text += "\n\r\u{1B}[2K" + line }
        lineCount += lines.count
        return text + "\u{1B}[\(lineCount)A\r"
    }

    /// The text that moves the cursor from the meter line to a fresh line below the transcript.
    package func leave() -> String { String(repeating: "\n", count: lineCount + 1) }

    /// `text` in lines of at most `width` characters, broken between words (a word longer
    /// than a line is cut).
    package static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 8)
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            var word = Substring(word)
            while word.count > width {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
