import Testing
@testable import VoiceJournalTerminal

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain name.wav", "plain name.wav"),
        ("Grüße – 日本語 🎙.flac", "Grüße – 日本語 🎙.flac"),
        ("a\nb", "a\\nb"),
        ("tab\there", "tab\\there"),
        ("\u{1B}[31mred\u{1B}[0m", "\\e[31mred\\e[0m"),
        ("\u{1B}]0;title\u{07}", "\\e]0;title\\u{7}"),
        ("del\u{7F}", "del\\u{7f}"),
        ("c1\u{9B}31m", "c1\\u{9b}31m"),
        ("evil\u{202E}vaw.exe", "evil\\u{202e}vaw.exe"),
    ])
    func escapesEveryControlCharacterAndNothingElse(input: String, shown: String) {
        #expect(TerminalText.escaped(input) == shown)
    }

    @Test func escapedTextHasNoControlCharacterLeft() {
        let every = String(String.UnicodeScalarView((0..<0xA0).compactMap(Unicode.Scalar.init)))
        let escaped = TerminalText.escaped(every)
        #expect(!escaped.unicodeScalars.contains { TerminalText.needsEscape($0) })
    }

    @Test func escapedLinesKeepLineBreaksOnly() {
        #expect(TerminalText.escapedLines("first\r\nsecond \u{1B}[2J\nthird\tend") == "first\nsecond \\e[2J\nthird\\tend")
    }

    @Test func everyTableCellIsEscapedAndEachRowIsOneLine() {
        let table = Table(headers: ["ID", "NAME"], rows: [
            ["1", "\u{1B}]0;pwned\u{07}"], ["2", "two\nlines\tand tab"], ["3", "\u{1B}[31mred"],
        ])
        let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(!table.render().unicodeScalars.contains { TerminalText.needsEscape($0) && $0 != "\n" })
        #expect(lines[1].hasSuffix("\\e]0;pwned\\u{7}"))
        #expect(lines[2].hasSuffix("two lines\\tand tab"))
    }
}
