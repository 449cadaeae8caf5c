import Testing
@testable import Terminal

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
}
