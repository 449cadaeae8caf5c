import VoiceJournalTerminal
import Testing

/// The transcript under the live meter: wrapped to the terminal, and the cursor always
/// brought back to the meter line.
@Suite struct TranscriptAreaTests {
    @Test func wrapsBetweenWordsAndCutsOnlyWordsLongerThanALine() {
        #expect(TranscriptArea.wrap("the quick brown fox jumps over the lazy dog", width: 10)
                == ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
        #expect(TranscriptArea.wrap("a supercalifragilistic word", width: 8) == ["a", "supercal", "ifragili", "stic", "word"])
        #expect(TranscriptArea.wrap("  \n ", width: 10).isEmpty)
    }

    @Test func linesGoBelowTheOnesBeforeAndTheCursorReturnsToTheMeter() {
        var area = TranscriptArea()
        #expect(area.append([]) == "")
        // From the meter line: down past nothing, print two lines, back up two.
        #expect(area.append(["one", "two"]) == "\n\r\u{1B}[2Kone\n\r\u{1B}[2Ktwo\u{1B}[2A\r")
        // Then down past those two, one more, back up three.
        #expect(area.append(["three"]) == "\n\n\n\r\u{1B}[2Kthree\u{1B}[3A\r")
        #expect(area.lineCount == 3)
        // Leaving: below the last line.
        #expect(area.leave() == "\n\n\n\n")
    }
}
