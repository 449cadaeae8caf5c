import Testing
@testable import VoiceJournalTerminal

/// Clock text for any number a row may hold (a journal edited by hand): never a trap.
@Suite struct ClockBoundsTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308, -1e308, Double(Int.max), 9.3e15])
    func anyNumberIsShownWithinTheLongestClock(_ seconds: Double) {
        for style in [Clock.Style.elapsed, .tenths, .position, .subtitle(separator: ",")] {
            let text = Clock.text(seconds, style)
            #expect(!text.isEmpty)
            #expect(text.count < 24, "\(text)")
        }
        #expect(Clock.text(.nan, .position) == "00:00")
        #expect(Clock.text(1e308, .elapsed) == Clock.text(Clock.longest, .elapsed))
    }
}
