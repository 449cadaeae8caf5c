import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalStore
import Synchronization
@testable import VoiceJournalTerminal
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalPlayback

/// The player in-process: a real session playing to the virtual speaker (unpaced: a session
/// not paused plays out in milliseconds), keys typed into a pseudo-terminal, signals faked.
@Suite struct PlayerTests {
    static let rate = 8000
    /// Twenty seconds of audio that never repeats within a period.
    static let samples: [Int16] = (0..<(20 * rate)).map { Int16(truncatingIfNeeded: $0 &* 7919 &+ $0 / 800) }
    static let segments = [
        Transcript.Segment(start: 0, end: 7, text: " The ferry left \u{1B}[31mat dawn."),
        Transcript.Segment(start: 7, end: 12, text: " and then we waited", words: [
            .init(start: 7, end: 8, word: " and"), .init(start: 8, end: 9, word: " then"),
            .init(start: 9, end: 10, word: " we"), .init(start: 10, end: 12, word: " waited"),
        ]),
        Transcript.Segment(start: 12, end: 20, text: " for the bus."),
    ]

    /// A session on a fresh speaker, paused before it starts when `paused`.
    private func session(paused: Bool, in folder: TemporaryFolder) throws -> (PlaybackSession, VirtualSpeaker) {
        let speaker = try VirtualSpeaker(in: folder.url)
        let device = try PlaybackDevice(name: speaker.name, format: PlaybackFormat(sampleRate: Self.rate, channels: 1),
                                        configuration: ALSAConfiguration(text: speaker.configText))
        let session = PlaybackSession(device: device, samples: Self.samples, logger: Logger(label: "test.player"))
        if paused { session.pause() }
        return (session, speaker)
    }

    /// What the player wrote, collected.
    private final class Screen: Sendable {
        private let text = Mutex("")
        private let lastWrite = Mutex<ContinuousClock.Instant?>(nil)
        var written: String { text.withLock { $0 } }
        /// When the player last wrote: its last act on the way out is showing the cursor again.
        var lastWrittenAt: ContinuousClock.Instant? { lastWrite.withLock { $0 } }
        func write(_ more: String) {
            text.withLock { $0 += more }
            lastWrite.withLock { $0 = .now }
        }

        /// Waits until what was written contains `wanted`.
        func waitFor(_ wanted: String) async throws {
            for _ in 0..<200 where !written.contains(wanted) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(written.contains(wanted), "never drew \(wanted)")
        }
    }

    private static let noSignals: Player.SignalHook = { _ in {} }

    private func play(_ session: PlaybackSession, showing: Bool = true, input: Int32, screen: Screen,
                      signals: @escaping Player.SignalHook = noSignals) -> Task<PlayerOutcome, Never> {
        Task {
            await Player.run(session, segments: Self.segments, title: "#12 · Daily", showing: showing, color: false, width: 61,
                             charset: .unicode, input: input, signals: signals, write: { screen.write($0) })
        }
    }

    /// Waits until the session's position reads `seconds`.
    private func waitForPosition(_ session: PlaybackSession, _ seconds: Double) async throws {
        for _ in 0..<200 where abs(session.status().seconds - seconds) > 0.01 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(abs(session.status().seconds - seconds) <= 0.01, "at \(session.status().seconds), not \(seconds)")
    }

    @Test func offATerminalItPlaysToTheEndAndDrawsNothing() async throws {
        let folder = try TemporaryFolder()
        let (session, speaker) = try session(paused: false, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let outcome = await play(session, showing: false, input: pty.child, screen: screen).value
        #expect(outcome.result.end == .finished && !outcome.quit && outcome.signal == nil)
        #expect(speaker.written() == Self.samples)
        #expect(screen.written.isEmpty)
        #expect(RawTerminal.isCooked(pty.child), "stdin is left alone")
    }

    @Test func spaceResumesAndThePlayerEndsWithTheSessionClearingItsLines() async throws {
        let folder = try TemporaryFolder()
        let (session, speaker) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen)
        try await screen.waitFor("⏸ 00:00 / 00:20")
        #expect(!RawTerminal.isCooked(pty.child), "raw while playing")
        #expect(speaker.bytesWritten() == 0)
        pty.type(" ")
        let outcome = await running.value
        #expect(outcome.result.end == .finished && !outcome.quit && outcome.signal == nil)
        #expect(speaker.written() == Self.samples)
        #expect(RawTerminal.isCooked(pty.child), "restored at the end")
        let written = screen.written
        #expect(written.hasPrefix("\u{1B}[?25l"), "the cursor is hidden while drawing")
        #expect(written.hasSuffix(ANSI.redrawLine + "\u{1B}[1A" + ANSI.redrawLine + "\u{1B}[1A" + ANSI.redrawLine + "\u{1B}[?25h"),
                "the three lines wiped and the cursor back: \(written.suffix(40).debugDescription)")
    }

    @Test func theLinesAreTheStatusTheSegmentSpokenEscapedAndTheKeys() async throws {
        let folder = try TemporaryFolder()
        let (session, _) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen)
        try await screen.waitFor("The ferry left")
        // Ends on the first frame's three lines: the status line (one column less than the
        // terminal, so it never wraps), the segment, its escape sequence made visible, and the keys.
        let frame = Array(screen.written.components(separatedBy: ANSI.redrawLine).suffix(3))
        let status = try #require(frame.first?.components(separatedBy: "\n").first)
        #expect(status.hasPrefix("⏸ 00:00 / 00:20 [") && status.hasSuffix("#12 · Daily"), "\(status)")
        #expect(PlaybackLine.columns(status) == 60)
        #expect(frame.dropFirst().first == "The ferry left \\e[31mat dawn.\n")
        #expect(frame.last == "space play · ←/→ 5 s · ↑/↓ segment · q quit")
        #expect(!screen.written.contains("\u{1B}[31m"))
        pty.type("\u{1B}[B")
        try await waitForPosition(session, 7)
        try await screen.waitFor("[and] then we waited")
        // The terminal is resized: the next frames follow it.
        pty.resize(columns: 41)
        func lastStatus() -> String {
            screen.written.components(separatedBy: ANSI.redrawLine).dropLast(2).last?.components(separatedBy: "\n").first ?? ""
        }
        for _ in 0..<100 where PlaybackLine.columns(lastStatus()) != 40 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(PlaybackLine.columns(lastStatus()) == 40, "\(lastStatus())")
        #expect(screen.written.components(separatedBy: ANSI.redrawLine).last == "", "40 columns are too few for the keys")
        pty.type("q")
        _ = await running.value
    }

    @Test func arrowsSkipAndStepThroughSegments() async throws {
        let folder = try TemporaryFolder()
        let (session, speaker) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen)
        try await screen.waitFor("⏸")
        pty.type("\u{1B}[C")
        try await waitForPosition(session, 5)
        pty.type("\u{1B}OC\u{1B}OC")
        try await waitForPosition(session, 15)
        pty.type("\u{1B}[D")
        try await waitForPosition(session, 10)
        // ↑ three seconds into the segment from 7 s: back to its start; again: the one before.
        pty.type("\u{1B}[A")
        try await waitForPosition(session, 7)
        pty.type("\u{1B}[A")
        try await waitForPosition(session, 0)
        pty.type("\u{1B}[B")
        try await waitForPosition(session, 7)
        pty.type("\u{1B}[B")
        try await waitForPosition(session, 12)
        // No segment after the last: ↓ stays.
        pty.type("\u{1B}[B")
        try await Task.sleep(for: .milliseconds(100))
        #expect(session.status().seconds == 12)
        #expect(session.status().isPaused && speaker.bytesWritten() == 0, "jumps keep the pause")
        pty.type("q")
        let outcome = await running.value
        #expect(outcome.quit && outcome.result.end == .stopped)
    }

    @Test func qQuitsAndRestoresTheTerminal() async throws {
        let folder = try TemporaryFolder()
        let (session, _) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen)
        try await screen.waitFor("⏸")
        pty.type("q")
        let outcome = await running.value
        #expect(outcome.quit && outcome.signal == nil && outcome.result.end == .stopped)
        #expect(RawTerminal.isCooked(pty.child))
        #expect(screen.written.hasSuffix("\u{1B}[?25h"))
    }

    @Test func ctrlCAsAByteQuitsAsAnInterrupt() async throws {
        let folder = try TemporaryFolder()
        let (session, _) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        // A terminal whose Ctrl-C is a byte, not SIGINT (with ISIG on the line discipline
        // would swallow it and signal the terminal's foreground group).
        pty.localFlags &= ~tcflag_t(ISIG)
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen)
        try await screen.waitFor("⏸")
        pty.type("\u{03}")
        let outcome = await running.value
        #expect(outcome.quit && outcome.signal == SIGINT && outcome.result.end == .stopped)
        #expect(RawTerminal.isCooked(pty.child))
    }

    @Test(arguments: [true, false])
    func aSignalStopsPlaybackAndRestoresTheTerminalAtOnce(showing: Bool) async throws {
        let folder = try TemporaryFolder()
        let (session, _) = try session(paused: true, in: folder)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)
        let cancelled = Mutex(false)
        let running = play(session, showing: showing, input: pty.child, screen: screen, signals: { onSignal in
            handler.withLock { $0 = onSignal }
            return { cancelled.withLock { $0 = true } }
        })
        if showing { try await screen.waitFor("⏸") } else { try await Task.sleep(for: .milliseconds(200)) }
        let signal = try #require(handler.withLock { $0 })
        #expect(!cancelled.withLock { $0 })
        signal(SIGTERM)
        // The terminal is back before playback has even ended.
        #expect(RawTerminal.isCooked(pty.child))
        let outcome = await running.value
        #expect(outcome.signal == SIGTERM && !outcome.quit && outcome.result.end == .stopped)
        #expect(cancelled.withLock { $0 }, "the signal watch ends with the player")
        #expect(showing ? screen.written.hasSuffix("\u{1B}[?25h") : screen.written.isEmpty)
    }

    @Test func aStopReturnsEvenWhenTheDeviceNeverTakesTheNextWrite() async throws {
        // The speaker's file is a FIFO nobody reads: once the pipe is full a write never returns.
        let folder = try TemporaryFolder()
        let speaker = try VirtualSpeaker(in: folder.url)
        #expect(mkfifo(speaker.outfile.path, 0o600) == 0)
        let fifo = open(speaker.outfile.path, O_RDONLY | O_NONBLOCK)
        #expect(fifo >= 0)
        let device = try PlaybackDevice(name: speaker.name, format: PlaybackFormat(sampleRate: Self.rate, channels: 1),
                                        configuration: ALSAConfiguration(text: speaker.configText))
        let session = PlaybackSession(device: device, samples: Self.samples, logger: Logger(label: "test.player"))
        let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)
        let pty = try PseudoTerminal()
        let screen = Screen()
        let running = play(session, input: pty.child, screen: screen, signals: { onSignal in
            handler.withLock { $0 = onSignal }
            return {}
        })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!session.isFinished, "stuck in a write")
        let started = ContinuousClock.now
        let signal = try #require(handler.withLock { $0 })
        signal(SIGINT)
        let outcome = await running.value
        #expect(outcome.signal == SIGINT && outcome.result.end == .stopped)
        #expect(outcome.result.position > 0 && outcome.result.framesPlayed == outcome.result.position)
        // It returns after the grace, not never. Timed by the player's own last write (the cursor
        // shown again, on its thread), not by when this task resumed: in a full run the suite's
        // blocking tests hold the cooperative pool's two threads, and resuming took 148 s.
        let waited = try #require(screen.lastWrittenAt) - started
        #expect(waited >= Player.stopGrace && waited < Player.stopGrace * 120, "\(waited)")
        #expect(RawTerminal.isCooked(pty.child))
        #expect(screen.written.hasSuffix("\u{1B}[?25h"))
        // Let the stuck write go, so the session's thread ends before the pipe closes.
        var sink = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<500 where !session.isFinished {
            _ = read(fifo, &sink, sink.count)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(session.isFinished)
        close(fifo)
    }
}
