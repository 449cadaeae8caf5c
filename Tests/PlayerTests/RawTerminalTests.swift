import Foundation
import Synchronization
import VoiceJournalTerminal
import Testing
@testable import VoiceJournalPlayback

@Suite struct RawTerminalTests {
    @Test func rawWhileHeldAndCookedAfterRestore() throws {
        let pty = try PseudoTerminal()
        #expect(RawTerminal.isCooked(pty.child))
        let restored = Mutex(0)
        let terminal = try #require(RawTerminal(input: pty.child) { restored.withLock { $0 += 1 } })
        #expect(pty.localFlags & tcflag_t(ICANON) == 0)
        #expect(pty.localFlags & tcflag_t(ECHO) == 0)
        // Ctrl-C still raises SIGINT: the signal path stops playback.
        #expect(pty.localFlags & tcflag_t(ISIG) != 0)
        // Ctrl-Z does not suspend it (a suspended player would leave the terminal raw).
        #expect(pty.controlCharacter(VSUSP) == 0)
        terminal.restore()
        #expect(RawTerminal.isCooked(pty.child))
        #expect(pty.controlCharacter(VSUSP) == 0x1A)
        terminal.restore()
        #expect(restored.withLock { $0 } == 1)
    }

    @Test func droppingItRestoresTheMode() throws {
        let pty = try PseudoTerminal()
        do {
            let terminal = RawTerminal(input: pty.child)
            #expect(terminal != nil)
            #expect(!RawTerminal.isCooked(pty.child))
        }
        #expect(RawTerminal.isCooked(pty.child))
    }

    @Test func notATerminalIsLeftAlone() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(RawTerminal(input: ends[0]) == nil)
    }

    @Test func keysArriveOneByOneWithoutEnter() async throws {
        let pty = try PseudoTerminal()
        let terminal = try #require(RawTerminal(input: pty.child))
        defer { terminal.restore() }
        let (keys, arrived) = AsyncStream<KeyPress>.makeStream()
        let reader = KeyReader(input: pty.child) { arrived.yield($0) }
        defer { reader.cancel() }
        pty.type(" \u{1B}[")
        pty.type("A\u{1B}OCq")
        var got: [KeyPress] = []
        for await key in keys {
            got.append(key)
            if got.count == 4 { break }
        }
        #expect(got == [.space, .up, .right, .quit])
    }
}

@Suite struct KeyReaderTests {
    @Test func cancelEndsTheThreadAndReadsNoMore() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let count = Mutex(0)
        let reader = KeyReader(input: ends[0]) { _ in count.withLock { $0 += 1 } }
        _ = write(ends[1], "q", 1)
        try await Task.sleep(for: .milliseconds(200))
        #expect(count.withLock { $0 } == 1)
        reader.cancel()
        reader.cancel()
        try await Task.sleep(for: .milliseconds(100))
        _ = write(ends[1], "q q", 3)
        try await Task.sleep(for: .milliseconds(200))
        #expect(count.withLock { $0 } == 1)
    }
}

@Suite struct SegmentStepTests {
    private let starts = [0.5, 4.0, 9.0, 15.0]

    @Test(arguments: [(0.0, 0.0), (0.6, 0.0), (3.9, 0.5), (4.5, 0.5), (5.5, 4.0), (9.2, 4.0), (8.9, 4.0), (20, 15.0), (15.5, 9.0)])
    func upRestartsTheSegmentOrGoesToThePreviousOne(at seconds: Double, expected: Double) {
        #expect(SegmentStep.previous(from: seconds, starts: starts) == expected)
    }

    @Test(arguments: [(0.0, 0.5), (0.5, 4.0), (3.9, 9.0), (4.0, 9.0), (12, 15.0), (15, nil)] as [(Double, Double?)])
    func downGoesToTheNextSegment(at seconds: Double, expected: Double?) {
        #expect(SegmentStep.next(from: seconds, starts: starts) == expected)
    }

    @Test func unsortedStartsAreSorted() {
        #expect(SegmentStep.next(from: 5, starts: [15, 9, 4, 0.5]) == 9)
        #expect(SegmentStep.previous(from: 10.5, starts: [15, 9, 4, 0.5]) == 9)
        #expect(SegmentStep.previous(from: 3, starts: []) == 0)
        #expect(SegmentStep.next(from: 3, starts: []) == nil)
    }
}
