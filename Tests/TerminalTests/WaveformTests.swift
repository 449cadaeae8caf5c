import Foundation
import Testing
@testable import VoiceJournalTerminal

@Suite struct WaveformTests {
    /// Lit cells per column.
    private func heights(_ rows: [String]) -> [Int] {
        let grid = rows.map(Array.init)
        return (0..<(grid.first?.count ?? 0)).map { column in grid.filter { $0[column] != " " }.count }
    }

    /// A linear amplitude `dbfs` below full scale.
    private func amplitude(_ dbfs: Double) -> Double { pow(10, dbfs / 20) }

    @Test func louderColumnsAreTallerOnADecibelScaleAndSilenceIsBlank() {
        // 8 rows over -48…0 dBFS: each row out from the centre is 12 dB.
        let columns = [Waveform.Column(peak: 1, rms: amplitude(-18)), .init(peak: amplitude(-18), rms: amplitude(-30)),
                       .init(peak: amplitude(-40), rms: amplitude(-46)), .init(peak: amplitude(-60), rms: amplitude(-70)),
                       .init(peak: 0, rms: 0)]
        let rows = Waveform.render(columns, height: 8, color: false)
        #expect(rows.count == 8)
        #expect(heights(rows) == [8, 6, 2, 0, 0], "below the floor is blank, as digital silence")
        // Mirrored around the centre: the RMS body in the middle, peaks shaded outside it.
        #expect(rows.map { Array($0)[0] } == ["░", "█", "█", "█", "█", "█", "█", "░"])
        #expect(rows.map { Array($0)[1] } == [" ", "░", "█", "█", "█", "█", "░", " "])
        #expect(rows.map { Array($0)[2] } == [" ", " ", " ", "█", "█", " ", " ", " "])
    }

    /// Peak and RMS of each `slice`-sample stretch of `samples` (-1…1), as `WaveformSummary` gives them.
    private func columns(_ samples: [Double], slice: Int) -> [Waveform.Column] {
        stride(from: 0, to: samples.count, by: slice).map { start in
            let part = samples[start..<min(start + slice, samples.count)]
            return Waveform.Column(peak: part.map(abs).max() ?? 0,
                                   rms: (part.reduce(0) { $0 + $1 * $1 } / Double(part.count)).squareRoot())
        }
    }

    @Test func loudSpeechQuietSpeechAndAPauseDrawThreeHeights() {
        // A second each of a 300 Hz tone at -1 dBFS (speech peaking near full scale), at -20,
        // at -30 (a voice far from the microphone), then digital silence; 10 columns a second.
        let rate = 8000
        func tone(_ dbfs: Double) -> [Double] {
            (0..<rate).map { amplitude(dbfs) * sin(2 * Double.pi * 300 * Double($0) / Double(rate)) }
        }
        let samples = tone(-1) + tone(-20) + tone(-30) + Array(repeating: 0, count: rate)
        let rows = Waveform.render(columns(samples, slice: rate / 10), height: 8, color: false)
        let drawn = heights(rows)
        #expect(drawn.count == 40)
        #expect(drawn[0..<10].allSatisfy { $0 == 8 } && drawn[10..<20].allSatisfy { $0 == 6 }
                && drawn[20..<30].allSatisfy { $0 == 4 } && drawn[30..<40].allSatisfy { $0 == 0 }, "\(drawn)")
        // On a linear scale -20 and -30 dBFS (0.1 and 0.03 of full scale) both lit only the centre rows.
        #expect(Set(drawn).count == 4)
    }

    @Test func levelsReachFromTheFloorToFullScale() {
        #expect(Waveform.reach(1) == 1 && Waveform.reach(2) == 1)
        #expect(abs(Waveform.reach(amplitude(-24)) - 0.5) < 1e-9)
        #expect(Waveform.reach(amplitude(-48)) == 0 && Waveform.reach(amplitude(-90)) == 0)
        #expect(Waveform.reach(0) == 0 && Waveform.reach(.nan) == 0)
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
