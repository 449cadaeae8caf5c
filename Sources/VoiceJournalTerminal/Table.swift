/// A plain-text table: columns padded to their widest cell, long cells cut with "…".
/// Cells are text from outside (names, transcripts, paths): `render` makes each one safe
/// for the terminal and one line long, so callers pass them exactly as stored.
package struct Table: Sendable {
    package var headers: [String]
    package var rows: [[String]]
    /// The widest any one column may get before its cells are cut.
    package var maxColumnWidth: Int

    package init(headers: [String], rows: [[String]] = [], maxColumnWidth: Int = 60) {
        self.headers = headers
        self.rows = rows
        self.maxColumnWidth = maxColumnWidth
    }

    /// The table as lines joined by newlines (no trailing newline), two spaces between columns.
    package func render() -> String {
        let cells = ([headers] + rows).map { row in row.map { Self.fit($0, maxColumnWidth) } }
        var widths = [Int](repeating: 0, count: headers.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return cells.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// One line of at most `width` characters: newlines folded to spaces, other control
    /// characters escaped (`TerminalText.escaped`), cut with "…".
    package static func fit(_ text: String, _ width: Int) -> String {
        let line = TerminalText.escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
        return line.count <= width ? line : String(line.prefix(max(0, width - 1))) + "…"
    }
}
