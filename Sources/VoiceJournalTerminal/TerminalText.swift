/// Text from outside (file names, server messages, transcripts, names the user typed long
/// ago) made safe to print: control characters cannot move the cursor, recolour the
/// terminal, rewrite its title or split one line of a listing into two.
///
/// Use it on every string that did not come from voicejournal itself, in human output
/// only: `--json` stays exact (JSON escapes control characters on its own).
package enum TerminalText {
    /// `text` with C0 and C1 control characters, DEL and the bidirectional overrides shown
    /// as visible escapes: `\n`, `\t`, `\r`, `\e`, else `\u{…}`. Printable text, including
    /// every non-Latin script and emoji, is unchanged.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let visible: String
            switch scalar {
            case "\n": visible = "\\n"
            case "\t": visible = "\\t"
            case "\r": visible = "\\r"
            case "\u{1B}": visible = "\\e"
            default: visible = "\\u{" + String(scalar.value, radix: 16) + "}"
            }
            result.append(contentsOf: visible.unicodeScalars)
        }
        return String(result)
    }

    /// `text` escaped line by line: its line breaks stay (a transcript, a typed entry, a
    /// multi-line message reads as lines), everything else is escaped as by `escaped`.
    package static func escapedLines(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// C0 controls, DEL, C1 controls, and the Unicode bidi embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069), which can make a name read backwards.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
