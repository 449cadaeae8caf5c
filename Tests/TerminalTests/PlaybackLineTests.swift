import Testing
@testable import VoiceJournalTerminal

@Suite struct PlaybackLineStatusTests {
    private func state(_ seconds: Double = 83, total: Double? = 600, paused: Bool = false, peak: Double = -12.44,
                       title: String = "#12 · 2026-11-24 · Daily") -> PlaybackLine.State {
        PlaybackLine.State(seconds: seconds, totalSeconds: total, isPaused: paused, peakDBFS: peak, title: title)
    }

    @Test(arguments: [12, 20, 30, 40, 60, 80, 100, 132, 200])
    func exactlyTheWidthAsked(width: Int) {
        for current in [state(), state(0, total: nil, paused: true, peak: -120, title: ""),
                        state(4000, total: 3600, peak: 0, title: String(repeating: "long title ", count: 30)),
                        state(title: "日記 \u{1B}[31m red")] {
            for color in [false, true] {
                for charset in [Charset.unicode, .ascii] {
                    let line = PlaybackLine.status(current, width: width, color: color, charset: charset)
                    #expect(PlaybackLine.columns(ANSI.stripped(line)) == width, "\(line)")
                }
            }
        }
    }

    @Test func showsGlyphTimesBarLevelAndTitle() {
        let line = PlaybackLine.status(state(), width: 80, color: false)
        #expect(line.hasPrefix("▶ 01:23 / 10:00 ["))
        #expect(line.hasSuffix("]  -12.4 dBFS  #12 · 2026-11-24 · Daily"))
        let paused = PlaybackLine.status(state(paused: true), width: 80, color: false)
        #expect(paused.hasPrefix("⏸ 01:23 / 10:00 ["))
    }

    @Test func theBarFillsInProportion() throws {
        for (seconds, expected) in [(0.0, 0), (150.0, 1), (300.0, 2), (600.0, 4), (900.0, 4)] {
            let line = PlaybackLine.status(state(seconds, title: ""), width: 100, color: false)
            let bar = try #require(line.split(separator: "[").last?.split(separator: "]").first)
            #expect(bar.count == PlaybackLine.longestBar)
            #expect(bar.filter { $0 == "█" }.count == PlaybackLine.longestBar * expected / 4, "at \(seconds)")
            #expect(bar.allSatisfy { $0 == "█" || $0 == "·" })
        }
    }

    @Test func anUnknownLengthShowsDashesAndAnEmptyBar() {
        let line = PlaybackLine.status(state(83, total: nil), width: 80, color: false)
        #expect(line.hasPrefix("▶ 01:23 / --:-- ["))
        #expect(!line.contains("█"))
    }

    @Test func asciiWithoutAUnicodeLocale() {
        let untitled = PlaybackLine.status(state(300, title: ""), width: 80, color: false, charset: .ascii)
        #expect(untitled.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(untitled.hasPrefix("> 05:00 / 10:00 [#"))
        #expect(PlaybackLine.status(state(paused: true, title: ""), width: 80, color: false, charset: .ascii).hasPrefix("= "))
    }

    @Test func theTitleIsEscapedAndCutToTheRoomLeft() {
        let line = PlaybackLine.status(state(title: "evil\u{1B}]0;pwned\u{07}\nname"), width: 100, color: true)
        #expect(!ANSI.stripped(line).contains("\u{1B}") && !line.contains("\u{07}") && !line.contains("\n"))
        #expect(line.contains("evil\\e]0;pwned\\u{7} name"))
        let long = PlaybackLine.status(state(title: String(repeating: "x", count: 200)), width: 80, color: false)
        #expect(long.hasSuffix("x…"))
        // The bar keeps at least its shortest width for the title's sake.
        let bar = long.split(separator: "[")[1].split(separator: "]")[0]
        #expect(bar.count == PlaybackLine.shortestBar)
    }

    @Test func aNarrowTerminalDropsTitleThenBar() {
        let narrow = PlaybackLine.status(state(), width: 40, color: false)
        #expect(narrow.contains("[") && !narrow.contains("Daily"))
        let tiny = PlaybackLine.status(state(), width: 30, color: false)
        #expect(tiny.hasPrefix("▶ 01:23 / 10:00  -12.4 dBFS"))
        #expect(!tiny.contains("["))
    }

    @Test func levelColouredLikeTheMeter() {
        #expect(PlaybackLine.status(state(peak: -30), width: 80, color: true).contains(ANSI.green + " -30.0 dBFS"))
        #expect(PlaybackLine.status(state(peak: -10), width: 80, color: true).contains(ANSI.yellow + " -10.0 dBFS"))
        #expect(PlaybackLine.status(state(peak: -2), width: 80, color: true).contains(ANSI.red + "  -2.0 dBFS"))
        #expect(PlaybackLine.status(state(peak: -120), width: 80, color: true).contains(ANSI.dim + "-120.0 dBFS"))
        let plain = PlaybackLine.status(state(), width: 80, color: false)
        #expect(!plain.contains("\u{1B}"))
        #expect(ANSI.stripped(PlaybackLine.status(state(), width: 80, color: true)) == plain)
    }

    @Test func oddLevelsDoNotBreakTheLine() {
        for peak in [-Double.infinity, .nan, 3, -500] {
            #expect(PlaybackLine.columns(PlaybackLine.status(state(peak: peak), width: 80, color: false)) == 80)
        }
    }
}

@Suite struct PlaybackLineSpokenTests {
    private let segments = [
        PlaybackLine.Segment(start: 0.5, end: 2, text: " The ferry left."),
        PlaybackLine.Segment(start: 2, end: 4, text: " and then\nwe waited", words: [
            .init(start: 2.0, end: 2.3, text: " and"), .init(start: 2.4, end: 2.8, text: " then"),
            .init(start: 3.0, end: 3.3, text: " we"), .init(start: 3.4, end: 3.9, text: " waited"),
        ]),
        PlaybackLine.Segment(start: 6, end: 7, text: "\u{1B}[2Jcleared?"),
    ]

    @Test(arguments: [(0.0, nil), (0.5, 0), (1.9, 0), (2.0, 1), (3.95, 1), (5.0, 1), (6.0, 2), (99, 2)] as [(Double, Int?)])
    func theSegmentSpokenIsTheLastStarted(seconds: Double, index: Int?) {
        #expect(PlaybackLine.segmentIndex(at: seconds, in: segments) == index)
    }

    @Test func beforeTheFirstSegmentTheLineIsEmpty() {
        #expect(PlaybackLine.spoken(segments, at: 0.2, width: 80, color: false) == "")
        #expect(PlaybackLine.spoken([], at: 3, width: 80, color: true) == "")
    }

    @Test func withoutWordTimingsTheTextOnOneLine() {
        #expect(PlaybackLine.spoken(segments, at: 1, width: 80, color: true) == "The ferry left.")
    }

    @Test(arguments: [(2.1, "[and] then we waited"), (2.35, "[and] then we waited"), (2.5, "and [then] we waited"),
                      (3.5, "and then we [waited]")])
    func theCurrentWordInBrackets(seconds: Double, text: String) {
        #expect(PlaybackLine.spoken(segments, at: seconds, width: 80, color: false) == text)
    }

    @Test func theCurrentWordInBoldWithColour() {
        #expect(PlaybackLine.spoken(segments, at: 3.1, width: 80, color: true) == "and then \(ANSI.bold)we\(ANSI.reset) waited")
    }

    @Test func afterTheSegmentEndsNoWordIsMarked() {
        #expect(PlaybackLine.spoken(segments, at: 5, width: 80, color: false) == "and then we waited")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(PlaybackLine.spoken(segments, at: 6.5, width: 80, color: true) == "\\e[2Jcleared?")
    }

    @Test func aLongSegmentIsCutWithAnEllipsis() {
        let long = [PlaybackLine.Segment(start: 0, end: 100, text: String(repeating: "word ", count: 40))]
        let line = PlaybackLine.spoken(long, at: 1, width: 30, color: false)
        #expect(line.count == 30 && line.hasSuffix("…"))
    }

    /// Forty timed words, "w0" … "w39", one a second.
    private var counted: [PlaybackLine.Segment] {
        let words = (0..<40).map { PlaybackLine.Word(start: Double($0), end: Double($0) + 0.9, text: " w\($0)") }
        return [PlaybackLine.Segment(start: 0, end: 40, text: words.map(\.text).joined(), words: words)]
    }

    @Test(arguments: [0, 5, 9, 10, 20, 33, 39])
    func aLongSegmentScrollsToKeepTheCurrentWordInSight(word: Int) {
        for color in [false, true] {
            let line = PlaybackLine.spoken(counted, at: Double(word) + 0.5, width: 40, color: color)
            let shown = ANSI.stripped(line)
            #expect(shown.count <= 40, "\(shown)")
            #expect(color ? line.contains(ANSI.bold + "w\(word)" + ANSI.reset) : shown.contains("[w\(word)]"), "\(shown)")
            #expect(shown.hasPrefix("w0 ") || shown.hasPrefix("[w0] ") || shown.hasPrefix("… "))
            #expect(shown.hasSuffix(" …") || shown.hasSuffix("w39") || shown.hasSuffix("[w39]"))
        }
    }

    @Test func scrollingKeepsWordsBeforeTheCurrentOne() {
        let line = PlaybackLine.spoken(counted, at: 20.5, width: 40, color: false)
        // The words before fill about a third of the line.
        #expect(line.hasPrefix("… w18 w19 [w20] w21"))
    }

    @Test func aWordLongerThanTheLineIsCut() {
        let word = String(repeating: "ü", count: 60)
        let segment = [PlaybackLine.Segment(start: 0, end: 2, text: word, words: [.init(start: 0, end: 2, text: word)])]
        let line = PlaybackLine.spoken(segment, at: 1, width: 20, color: false)
        #expect(line.count == 20 && line.hasPrefix("[ü") && line.hasSuffix("…]"))
    }

    @Test func wideCharactersCountTwoColumns() {
        let text = String(repeating: "日記", count: 30)
        let line = PlaybackLine.spoken([PlaybackLine.Segment(start: 0, end: 1, text: text)], at: 0.5, width: 21, color: false)
        #expect(PlaybackLine.columns(line) <= 21 && line.count == 11)
    }
}

@Suite struct PlaybackLineKeyTests {
    @Test func theHintNamesTheKeysThePlayerReads() {
        // Player.act: space toggles the pause, ←/→ skip 5 s, ↑/↓ step through segments, q quits.
        #expect(PlaybackLine.keyHint(isPaused: false, skipSeconds: 5, segments: true, width: 80, color: false)
                == "space pause · ←/→ 5 s · ↑/↓ segment · q quit")
        #expect(PlaybackLine.keyHint(isPaused: true, skipSeconds: 5, segments: true, width: 80, color: false)
                == "space play · ←/→ 5 s · ↑/↓ segment · q quit")
        #expect(PlaybackLine.keyHint(isPaused: false, skipSeconds: 2.5, segments: false, width: 80, color: false)
                == "space pause · ←/→ 2.5 s · q quit", "no segments to step through: no ↑/↓")
    }

    @Test func asciiNamesTheArrows() {
        let hint = PlaybackLine.keyHint(isPaused: false, skipSeconds: 5, segments: true, width: 80, color: false, charset: .ascii)
        #expect(hint == "space pause | left/right 5 s | up/down segment | q quit")
        #expect(hint.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func dimOnlyWithColourAndNothingOnANarrowTerminal() {
        let plain = "space pause · ←/→ 5 s · ↑/↓ segment · q quit"
        #expect(PlaybackLine.keyHint(isPaused: false, skipSeconds: 5, segments: true, width: 80, color: true)
                == ANSI.dim + plain + ANSI.reset)
        #expect(PlaybackLine.keyHint(isPaused: false, skipSeconds: 5, segments: true, width: plain.count, color: false) == plain)
        #expect(PlaybackLine.keyHint(isPaused: false, skipSeconds: 5, segments: true, width: plain.count - 1, color: true) == "")
    }
}
