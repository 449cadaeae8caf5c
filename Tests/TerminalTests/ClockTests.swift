import Testing
@testable import VoiceJournalTerminal

@Suite struct ClockTests {
    @Test(arguments: [
        (0.0, Clock.Style.elapsed, "0:00"), (64.6, .elapsed, "1:05"), (3723.0, .elapsed, "1:02:03"), (-3.0, .elapsed, "0:00"),
        (65.39, .tenths, "01:05.3"), (65.99, .tenths, "01:05.9"), (3600.0, .tenths, "1:00:00.0"),
        (65.3, .subtitle(separator: ","), "00:01:05,300"), (3723.0042, .subtitle(separator: "."), "01:02:03.004"),
        (0.0005, .subtitle(separator: ","), "00:00:00,001"),
        (0.0, .position, "00:00"), (723.9, .position, "12:03"), (3723.5, .position, "1:02:03"), (-2.0, .position, "00:00"),
    ])
    func formatsEachStyle(seconds: Double, style: Clock.Style, text: String) {
        #expect(Clock.text(seconds, style) == text)
    }
}
