import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import Synchronization
import VoiceJournalTerminal
import VoiceJournalSystem

/// How a player run ended.
public struct PlayerOutcome: Sendable {
    /// What the session reports: frames played, where it ended, why.
    public var result: PlaybackResult
    /// The listener pressed `q` (or Ctrl-C arrived as a key).
    public var quit: Bool
    /// SIGINT or SIGTERM stopped it (SIGINT also for Ctrl-C read as a key): the command exits
    /// 130 for either, as `record` does.
    public var signal: Int32?

    public init(result: PlaybackResult, quit: Bool, signal: Int32?) {
        self.result = result
        self.quit = quit
        self.signal = signal
    }
}

/// Plays a session to its end on a terminal or off one: the status line, the words being
/// spoken and the keys to press redrawn in place, keys read from standard input, signals
/// turned into a stop.
public enum Player {
    /// How often the lines are redrawn (and after every key).
    static let redrawEvery = Duration.milliseconds(100)
    /// ← and → move this far.
    static let skipSeconds = 5.0
    /// How long a stop (q, a signal) waits for the session to end. A sound card returns from
    /// a write within a period; a device that hangs (a stalled network sink, a pipe nobody
    /// reads) would otherwise keep Ctrl-C from ending the command.
    static let stopGrace = Duration.seconds(1)

    /// Starts `session` and waits for its end, `q`, or SIGINT/SIGTERM (which stop it).
    /// `showing`: draw a status line, the spoken segment of `segments` and the keys (with
    /// `write`; the CLI passes stderr; `width` is the terminal's, then its new width when
    /// resized; the lines take one column less so they never wrap) and read keys from stdin in raw mode
    /// (space, ←/→ 5 s, ↑/↓ previous/next segment, q); the terminal mode is restored on every
    /// exit path (end, q, signal, device error). Not `showing`: nothing is drawn and stdin is
    /// left alone. The player's loop runs on a thread of its own (see `play` to run it on the
    /// calling thread).
    public static func run(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool,
                           color: Bool, width: Int, write: @escaping @Sendable (String) -> Void) async -> PlayerOutcome {
        await run(session, segments: segments, title: title, showing: showing, color: color, width: width,
                  charset: showing ? Charset.detect() : .ascii, input: STDIN_FILENO, signals: watchSignals, write: write)
    }

    /// `run` on the calling thread, which it blocks until the end: for a caller with a thread of
    /// its own to give (the command's main thread), with no thread or task started for the loop.
    public static func play(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool,
                            color: Bool, width: Int, write: @escaping @Sendable (String) -> Void) -> PlayerOutcome {
        play(session, segments: segments, title: title, showing: showing, color: color, width: width,
             charset: showing ? Charset.detect() : .ascii, input: STDIN_FILENO, signals: watchSignals, write: write)
    }

    /// Calls its argument on SIGINT or SIGTERM until the function it returns is called.
    typealias SignalHook = @Sendable (@escaping @Sendable (Int32) -> Void) -> () -> Void

    static let watchSignals: SignalHook = { onSignal in
        let watch = SignalWatch(onSignal)
        return { watch.cancel() }
    }

    enum Event: Sendable {
        /// The clock: redraw, and look whether the session ended or a stop ran out of grace.
        case tick
        case key(KeyPress)
        case signal(Int32)
    }

    /// `run` with what tests replace: the charset, the terminal keys come from, the signals.
    ///
    /// Everything is set up before the first suspension (signals watched, raw mode, the session
    /// started); then the player's loop runs on a thread of its own, fed by threads (the clock,
    /// the keys, the signal watch): nothing it does while playing waits on the shared threads
    /// of Swift's concurrency, which a busy process may leave it no turn on.
    static func run(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool,
                    color: Bool, width: Int, charset: Charset, input: Int32, signals: SignalHook,
                    write: @escaping @Sendable (String) -> Void) async -> PlayerOutcome {
        let running = Running(session, segments: segments, title: title, showing: showing, color: color, width: width,
                              charset: charset, input: input, signals: signals, write: write)
        return await DedicatedThread.run(name: "voicejournal player") { running.loop() }
    }

    /// `play` with what tests replace, as `run`.
    static func play(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool,
                     color: Bool, width: Int, charset: Charset, input: Int32, signals: SignalHook,
                     write: @escaping @Sendable (String) -> Void) -> PlayerOutcome {
        Running(session, segments: segments, title: title, showing: showing, color: color, width: width,
                charset: charset, input: input, signals: signals, write: write).loop()
    }

    /// A player set up and its session started (`init`), waiting for its loop to be run once.
    private final class Running: @unchecked Sendable {
        // @unchecked: every property is set in init, on the caller's thread; afterwards only the
        // one thread that runs `loop()` touches them (the signal watch holds its own closure).
        private let session: PlaybackSession
        private let segments: [Transcript.Segment]
        private let width: Int
        private let events = EventQueue()
        private let screen: Screen?
        private let terminal: RawTerminal?
        private let keys: KeyReader?
        private let clock: Ticker?
        private let stopWatching: () -> Void
        private let startFrame: Int64

        init(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool, color: Bool, width: Int,
             charset: Charset, input: Int32, signals: SignalHook, write: @escaping @Sendable (String) -> Void) {
            self.session = session
            self.segments = segments
            self.width = width
            let events = events
            let screen = showing ? Screen(segments: segments, title: title, color: color, charset: charset, write: write) : nil
            self.screen = screen
            // Signals are watched before the terminal goes raw: a Ctrl-C in between must not take
            // the process down with the terminal raw.
            let raw = Mutex<RawTerminal?>(nil)
            stopWatching = signals { number in
                // At once, from here: whatever happens to the rest, the shell gets its terminal back.
                raw.withLock { $0 }?.restore()
                // Queued before the stop: the end it brings must not reach the loop first.
                events.push(.signal(number))
                session.stop()
            }
            // Raw mode before anything is drawn; the cursor, hidden while drawing, comes back with it.
            let terminal = screen.flatMap { screen in RawTerminal(input: input, whenRestored: { screen.showCursor() }) }
            self.terminal = terminal
            raw.withLock { $0 = terminal }
            keys = terminal.map { _ in KeyReader(input: input) { events.push(.key($0)) } }
            // The clock redraws on a terminal; the end of playback wakes the loop at once.
            clock = showing ? Ticker(every: redrawEvery) { events.push(.tick) } : nil
            session.whenFinished { _ in events.push(.tick) }
            startFrame = session.status().position
            session.start()
            screen?.draw(session.status(), width: (terminal?.columns() ?? width) - 1, readingKeys: terminal != nil)
        }

        /// Follows the keys, signals and the clock until the session ends (or a stop's grace
        /// runs out), then restores the terminal and stops watching signals.
        func loop() -> PlayerOutcome {
            var quit = false
            var signal: Int32?
            var stopAsked: ContinuousClock.Instant?
            var result: PlaybackResult?
            while result == nil {
                switch events.next() {
                case .tick:
                    break
                case .key(let key):
                    act(on: key, session: session, segments: segments, quit: &quit, signal: &signal)
                case .signal(let number):
                    signal = signal ?? number
                }
                if let ended = session.finalResult {
                    result = ended
                    break
                }
                if stopAsked == nil, quit || signal != nil {
                    stopAsked = .now
                    // Wakes the loop when the grace is over, clock or not.
                    let events = events
                    DedicatedThread.start(name: "voicejournal player grace") {
                        Thread.sleep(forTimeInterval: Double(stopGrace.components.seconds))
                        events.push(.tick)
                    }
                }
                if let asked = stopAsked, ContinuousClock.now - asked >= stopGrace {
                    // What is known of where it got: the device's thread is left to the process's exit.
                    let last = session.status()
                    result = PlaybackResult(framesPlayed: max(0, last.position - startFrame), position: last.position,
                                            underruns: 0, end: .stopped)
                    break
                }
                screen?.draw(session.status(), width: (terminal?.columns() ?? width) - 1, readingKeys: terminal != nil)
            }
            clock?.cancel()
            keys?.cancel()
            screen?.clear()
            terminal?.restore()
            screen?.showCursor()
            let ended = result ?? PlaybackResult(framesPlayed: 0, position: startFrame, underruns: 0, end: .stopped)
            stopWatching()
            return PlayerOutcome(result: ended, quit: quit, signal: signal)
        }
    }

    /// What a key does to the session.
    static func act(on key: KeyPress, session: PlaybackSession, segments: [Transcript.Segment],
                    quit: inout Bool, signal: inout Int32?) {
        switch key {
        case .space:
            session.togglePause()
        case .left:
            session.skip(seconds: -skipSeconds)
        case .right:
            session.skip(seconds: skipSeconds)
        case .up:
            guard !segments.isEmpty else { return }
            session.seek(toSeconds: SegmentStep.previous(from: session.status().seconds, starts: segments.map(\.start)))
        case .down:
            guard let next = SegmentStep.next(from: session.status().seconds, starts: segments.map(\.start)) else { return }
            session.seek(toSeconds: next)
        case .quit:
            quit = true
            session.stop()
        case .interrupt:
            quit = true
            signal = signal ?? SIGINT
            session.stop()
        }
    }
}

/// Events for the player's loop, from any thread; `next()` waits for one.
private final class EventQueue: Sendable {
    private let pending = Mutex<[Player.Event]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func push(_ event: Player.Event) {
        pending.withLock { $0.append(event) }
        arrived.signal()
    }

    func next() -> Player.Event {
        while true {
            arrived.wait()
            if let event = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
        }
    }
}

/// Calls `tick` every `interval` from a thread of its own until `cancel()`.
private final class Ticker: Sendable {
    private final class Stop: Sendable {
        let requested = Mutex(false)
        var isRequested: Bool { requested.withLock { $0 } }
    }
    private let stop = Stop()

    init(every interval: Duration, _ tick: @escaping @Sendable () -> Void) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let stop = stop
        DedicatedThread.start(name: "voicejournal player clock") {
            while !stop.isRequested {
                Thread.sleep(forTimeInterval: seconds)
                if stop.isRequested { return }
                tick()
            }
        }
    }

    func cancel() { stop.requested.withLock { $0 = true } }
}

/// The player's lines on the terminal, redrawn in place: the status line, under it the
/// segment being spoken, and under that the keys (blank on a terminal too narrow for them).
/// The cursor rests at the end of the last line between frames.
private final class Screen: Sendable {
    /// Status, spoken words, keys: always three, so a frame knows how far up the last began.
    static let lineCount = 3
    private let segments: [PlaybackLine.Segment]
    private let title: String
    private let color: Bool
    private let charset: Charset
    private let write: @Sendable (String) -> Void
    /// Whether the lines are on screen, and whether the cursor is hidden.
    private let shown = Mutex((lines: false, cursorHidden: false))

    init(segments: [Transcript.Segment], title: String, color: Bool, charset: Charset,
         write: @escaping @Sendable (String) -> Void) {
        self.segments = segments.map { segment in
            PlaybackLine.Segment(start: segment.start, end: segment.end, text: segment.text,
                                 words: (segment.words ?? []).map { PlaybackLine.Word(start: $0.start, end: $0.end, text: $0.word) })
        }
        self.title = title
        self.color = color
        self.charset = charset
        self.write = write
    }

    /// Draws (or redraws over) the lines for `status`, `width` columns at most; the keys line
    /// is blank unless `readingKeys` (in the background the player reads none).
    func draw(_ status: PlaybackStatus, width: Int, readingKeys: Bool) {
        let width = max(width, 1)
        let state = PlaybackLine.State(seconds: status.seconds, totalSeconds: status.totalSeconds,
                                       isPaused: status.isPaused, peakDBFS: status.peakDBFS, title: title)
        let lines = [PlaybackLine.status(state, width: width, color: color, charset: charset),
                     PlaybackLine.spoken(segments, at: status.seconds, width: width, color: color),
                     readingKeys ? PlaybackLine.keyHint(isPaused: status.isPaused, skipSeconds: Player.skipSeconds,
                                                        segments: !segments.isEmpty, width: width, color: color, charset: charset) : ""]
        let start = shown.withLock { shown in
            defer { shown = (true, true) }
            // First frame: hide the cursor; later: back up to the status line.
            return shown.lines ? Self.upToFirstLine : (shown.cursorHidden ? "" : "\u{1B}[?25l")
        }
        write(start + lines.map { ANSI.redrawLine + $0 }.joined(separator: "\n"))
    }

    /// From the end of the last line to the first, each line wiped on the way.
    private static let upToFirstLine = String(repeating: ANSI.redrawLine + "\u{1B}[1A", count: lineCount - 1)

    /// Wipes the lines, leaving the cursor (shown) at the start of where the status line
    /// was. The cursor is shown again here too: a signal may have shown it already, and the
    /// wipe must not be the last word.
    func clear() {
        let wasShown = shown.withLock { shown in
            defer { shown = (false, false) }
            return shown.lines
        }
        if wasShown { write(Self.upToFirstLine + ANSI.redrawLine + "\u{1B}[?25h") }
    }

    /// Shows the cursor again (once).
    func showCursor() {
        let hidden = shown.withLock { shown in
            defer { shown.cursorHidden = false }
            return shown.cursorHidden
        }
        if hidden { write("\u{1B}[?25h") }
    }
}
