import VoiceJournalTerminal
import Testing

/// The live meter as text: redrawn in place with lines under it on a terminal, plain lines elsewhere.
@Suite struct LevelDisplayTests {
    let level = MeterLine.State(seconds: 1.5, peakDBFS: -12, rmsDBFS: -20, holdDBFS: -10, clipped: false)
    let second = LevelDisplay.Second(second: 1, peakDBFS: -12.44, rmsDBFS: -20.1, clipped: true)

    @Test func onATerminalTheMeterIsRedrawnWithTheLinesUnderIt() {
        let terminal = TerminalInfo(isTTY: true, color: false, width: 41)
        var display = LevelDisplay(showing: true, terminal: terminal)
        #expect(display.start(hint: "Recording from default to /a.wav") == "Recording from default to /a.wav — press Enter to stop\n")
        let meter = MeterLine.render(level, width: 40, color: false)
        #expect(display.render(.init(level: level, seconds: [second])) == ANSI.redrawLine + meter)
        var area = TranscriptArea()
        let under = area.append(["hello there"])
        #expect(display.render(.init(level: level, lines: ["hello there"], finished: true)) == under + ANSI.redrawLine + meter + area.leave())
    }

    @Test func elsewhereLinesAndOnePlainLinePerSecond() {
        var display = LevelDisplay(showing: true, terminal: TerminalInfo(isTTY: false, color: false, width: 80))
        #expect(display.start(hint: "anything") == "")
        #expect(display.render(.init(level: level, seconds: [second], lines: ["a piece"]))
                == "a piece\n00:01.0 peak -12.4 dBFS rms -20.1 dBFS CLIP\n")
        var hidden = LevelDisplay(showing: false, terminal: TerminalInfo(isTTY: true, color: true, width: 80))
        #expect(hidden.render(.init(level: level, seconds: [second], lines: ["a piece"])) == "a piece\n")
        #expect(hidden.render(.init(level: level)) == "")
    }

    @Test func aFilesPageIsItsHeaderItsWaveformAndItsTimeAxis() {
        let facts = Waveform.FileFacts(name: "memo\u{1B}.m4a", format: "m4a", sampleRate: 44100, channels: 2,
                                       durationSeconds: 2, peakDBFS: -3.04, rmsDBFS: -9)
        let columns = Array(repeating: Waveform.Column(peak: 0.5, rms: 0.2), count: 20)
        let page = Waveform.page(facts, columns: columns, width: 20, height: 4, color: false)
        #expect(page.first == "memo\\e.m4a  m4a · 44100 Hz · stereo · 00:02.0 · peak -3.0 dBFS · rms -9.0 dBFS")
        #expect(Array(page.dropFirst()) == Waveform.render(columns, height: 4, color: false)
                + Waveform.timeAxis(width: 20, durationSeconds: 2))
    }
}
