import Testing
@testable import VoiceJournalTerminal

@Suite struct WaveformTests {
    /// Lit cells per column.
    private func heights(_ rows: [String]) -> [Int] {
        let grid = rows.map(Array.init)
        return (0..<(grid.first?.count ?? 0)).map { column in grid.filter { $0[column] != " " }.count }
    }

    @Test func loudColumnsAreTallerAndSilenceIsBlank() {
        let columns = [Waveform.Column(peak: 1, rms: 0.7), .init(peak: 0.6, rms: 0.35), .init(peak: 0.03, rms: 0.02), .init(peak: 0, rms: 0)]
        let rows = Waveform.render(columns, height: 8, color: false)
        #expect(rows.count == 8)
        #expect(heights(rows) == [8, 6, 2, 0])
        // Mirrored around the centre: the RMS body in the middle, peaks shaded outside it.
        #expect(rows.map { Array($0)[0] } == ["░", "█", "█", "█", "█", "█", "█", "░"])
        #expect(rows.map { Array($0)[1] } == [" ", "░", "█", "█", "█", "█", "░", " "])
    }

    @Test func oddHeightsRoundUpToKeepTheCentreLine() {
        #expect(Waveform.render([.init(peak: 1, rms: 1)], height: 5, color: false).count == 6)
    }

    @Test func colourOnlyWhenAsked() {
        let columns = [Waveform.Column(peak: 1, rms: 0.5)]
        #expect(!Waveform.render(columns, height: 4, color: false).joined().contains("\u{1B}"))
        #expect(Waveform.render(columns, height: 4, color: true).joined().contains(ANSI.cyan))
    }

    @Test func timeAxisHasRoundTicksThatFitTheWidth() {
        let axis = Waveform.timeAxis(width: 40, durationSeconds: 2)
        #expect(axis[0].count == 40)
        #expect(axis[0].filter { $0 == "┬" }.count == 5)  // every 0.5 s, both ends included
        #expect(axis[1].hasPrefix("0s"))
        #expect(axis[1].contains("1s") && axis[1].hasSuffix("2s"))
        #expect(axis[1].count <= 40)
        let long = Waveform.timeAxis(width: 80, durationSeconds: 600)[1]
        #expect(long.contains("2:00") && long.hasSuffix("10:00"))
    }

    @Test(arguments: [(0.0, 1.0, "0s"), (1.5, 0.5, "1.5s"), (45, 5, "45s"), (150, 30, "2:30"), (3720, 600, "1:02:00")])
    func labelsReadNaturally(seconds: Double, step: Double, label: String) {
        #expect(Waveform.timeLabel(seconds, step: step) == label)
    }
}
