import Foundation
import Testing
@testable import VoiceJournalTerminal

@Suite struct MeterLineTests {
    private func state(peak: Double, hold: Double? = nil, clipped: Bool = false, seconds: Double = 3.25) -> MeterLine.State {
        MeterLine.State(seconds: seconds, peakDBFS: peak, rmsDBFS: peak - 3, holdDBFS: hold ?? peak, clipped: clipped)
    }

    @Test(arguments: [40, 60, 80, 132, 200])
    func lineFitsTheTerminalWidthExactly(width: Int) {
        for peak in [-96.0, -42.5, -12.4, -3.0, 0.0] {
            for color in [false, true] {
                let line = MeterLine.render(state(peak: peak, hold: -1, clipped: peak > -1), width: width, color: color)
                #expect(ANSI.stripped(line).count == width)
            }
        }
    }

    @Test func colourOnlyWhenAsked() {
        let plain = MeterLine.render(state(peak: -3, clipped: true), width: 80, color: false)
        #expect(!plain.contains("\u{1B}"))
        let coloured = MeterLine.render(state(peak: -3, clipped: true), width: 80, color: true)
        #expect(coloured.contains(ANSI.green) && coloured.contains(ANSI.yellow) && coloured.contains(ANSI.red))
        #expect(ANSI.stripped(coloured) == plain)
    }

    @Test func quietLevelsLightOnlyGreen() {
        let line = MeterLine.render(state(peak: -30), width: 80, color: true)
        #expect(line.contains(ANSI.green) && !line.contains(ANSI.yellow) && !line.contains(ANSI.red))
    }

    @Test(arguments: [(-40.0, MeterLine.Zone.green), (-18.01, .green), (-18.0, .yellow), (-6.0, .yellow), (-5.9, .red), (0.0, .red)])
    func zonesSplitAtMinus18AndMinus6(level: Double, zone: MeterLine.Zone) {
        #expect(MeterLine.zone(level) == zone)
    }

    @Test func showsTimeNumberHoldMarkerAndClip() {
        let line = MeterLine.render(state(peak: -30, hold: -6, clipped: true), width: 70, color: false)
        #expect(line.hasPrefix("00:03.2 ["))
        #expect(line.hasSuffix("] -30.0 dBFS CLIP"))
        let bar = line.split(separator: "[")[1].split(separator: "]")[0]
        let filled = bar.filter { $0 == "█" }.count
        let hold = try! #require(bar.firstIndex(of: "|"))
        // The bar spans -60…0 dBFS: -30 fills half, the hold at -6 sits at nine tenths.
        #expect(filled == bar.count / 2)
        #expect(abs(bar.distance(from: bar.startIndex, to: hold) - bar.count * 9 / 10) <= 1)
        #expect(!MeterLine.render(state(peak: -30), width: 70, color: false).contains("CLIP"))
    }

    @Test func plainLineForOneSecondOfAudio() {
        #expect(MeterLine.plain(seconds: 3, peakDBFS: -12.44, rmsDBFS: -20.06) == "00:03.0 peak -12.4 dBFS rms -20.1 dBFS")
        #expect(MeterLine.plain(seconds: 61, peakDBFS: -0.01, rmsDBFS: -96, clipped: true) == "01:01.0 peak 0.0 dBFS rms -96.0 dBFS CLIP")
    }

    @Test(arguments: [(0.0, "00:00.0"), (3.99, "00:03.9"), (59.95, "00:59.9"), (600, "10:00.0"), (3723.5, "1:02:03.5")])
    func clockCountsTenths(seconds: Double, text: String) {
        #expect(MeterLine.clock(seconds) == text)
    }
}

@Suite struct TerminalInfoTests {
    @Test func colourNeedsATTYAndNoNO_COLOR() {
        #expect(TerminalInfo.colorEnabled(isTTY: true, environment: [:]))
        #expect(!TerminalInfo.colorEnabled(isTTY: false, environment: [:]))
        #expect(!TerminalInfo.colorEnabled(isTTY: true, environment: ["NO_COLOR": "1"]))
        #expect(TerminalInfo.colorEnabled(isTTY: true, environment: ["NO_COLOR": ""]))
        #expect(!TerminalInfo.colorEnabled(isTTY: true, environment: ["TERM": "dumb"]))
    }

    @Test func widthFromTheTerminalThenCOLUMNSThen80() {
        #expect(TerminalInfo.width(reported: 132, environment: ["COLUMNS": "40"]) == 132)
        #expect(TerminalInfo.width(reported: nil, environment: ["COLUMNS": "40"]) == 40)
        #expect(TerminalInfo.width(reported: 0, environment: ["COLUMNS": "wide"]) == 80)
    }

    @Test func aPipeIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let info = TerminalInfo.detect(fileDescriptor: fds[1], environment: [:])
        #expect(!info.isTTY && !info.color && info.width == 80)
    }
}
