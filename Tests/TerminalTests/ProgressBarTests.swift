import VoiceJournalTerminal
import Testing

@Suite struct ProgressBarTests {
    @Test func showsCountsPaceAndETA() {
        let progress = BatchProgress(total: 40, done: 11, failed: 1, elapsed: 30)
        #expect(progress.filesPerMinute == 24)
        #expect(progress.secondsLeft == 70)
        let line = ProgressBar.line(progress, width: 80, color: false)
        // 32 cells fit beside the 44 columns of text; 12 of 40 files fill 9 of them.
        #expect(line == "[" + String(repeating: "█", count: 9) + String(repeating: "░", count: 23)
            + "] 12/40 · 1 failed · 24.0 files/min · ETA 1:10")
        #expect(line.count <= 80)
    }

    @Test func aSplitFileShowsItsChunksAndMovesTheBarAsTheyFinish() {
        var progress = BatchProgress(total: 1, elapsed: 30)
        progress.chunksDone = 3
        progress.chunksTotal = 12
        progress.partialFiles = 0.25
        let line = ProgressBar.line(progress, width: 80, color: false)
        #expect(line.contains("] 0/1 · chunks 3/12 · "), "\(line)")
        // A quarter of the one file's chunks: a quarter of the bar, though no file has ended.
        let bar = line.prefix { $0 != "]" }.dropFirst()
        #expect(bar.count { $0 == "█" } == bar.count / 4)
        #expect(!ProgressBar.line(BatchProgress(total: 1), width: 80, color: false).contains("chunks"))
    }

    @Test func fitsNarrowTerminalsByDroppingTheBar() {
        let progress = BatchProgress(total: 10, done: 0, elapsed: 1)
        let line = ProgressBar.line(progress, width: 30, color: false)
        #expect(line == "0/10 · -- files/min · ETA --:--")
        #expect(ProgressBar.line(progress, width: 60, color: false).count <= 60)
    }

    @Test func colourOnlyWhenAsked() {
        let progress = BatchProgress(total: 2, done: 1, failed: 1, elapsed: 10)
        #expect(!ProgressBar.line(progress, width: 80, color: false).contains("\u{1B}["))
        let coloured = ProgressBar.line(progress, width: 80, color: true)
        #expect(coloured.contains("\u{1B}[31m1 failed\u{1B}[0m"))
    }

    @Test(arguments: [(0.0, "0:00"), (59.4, "0:59"), (61, "1:01"), (3599, "59:59"), (3661, "1:01:01")])
    func clockFormat(seconds: Double, text: String) {
        #expect(ProgressBar.clock(seconds) == text)
    }
}
