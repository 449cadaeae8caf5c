import Foundation
import Synchronization
import Testing
import VoiceJournalTestSupport

/// `voicejournal play` on a real terminal: the built binary in a tmux pane, playing to a
/// virtual speaker whose file is a FIFO this test reads at real-time speed (so the position
/// moves as a sound card would move it). What the pane shows is read with `capture-pane`, keys
/// are typed with `send-keys`, and `stty -a` in the same pane afterwards says whether the
/// terminal got its line editing and echo back.
///
/// They run on their own (`scripts/test` runs them after the rest, with
/// VOICEJOURNAL_TERMINAL_TESTS=1): beside the whole suite, the tmux server stops taking the
/// pane's output and the pane freezes at its first frame, though `play` draws on.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["VOICEJOURNAL_TERMINAL_TESTS"] == "1",
                             "run alone: VOICEJOURNAL_TERMINAL_TESTS=1 swift test --filter PlayTerminalTests"))
struct PlayTerminalTests {
    /// 16 kHz mono S16: bytes the speaker takes per second of audio.
    static let bytesPerSecond = 32_000

    /// A minute: long enough that a test starved for a while by the rest of the suite (which
    /// holds the shared threads with its own waits) still finds it playing; `q` ends it early.
    static let recordingSeconds = 60.0

    @Test func showsThePositionAndTheWordsPausesOnSpaceAndQuitsOnQ() async throws {
        let play = try PlayInTmux(seconds: Self.recordingSeconds)
        defer { play.close() }
        try await play.start()

        // The position moves and the spoken line follows the transcript: the name from 1.5 s on.
        // Deadlines are generous, and nothing depends on catching a short moment: the whole
        // suite may be loading both cores.
        let status = try await play.waitForPane("/ 01:00", seconds: 30)
        #expect(status.contains("recording #1") && status.contains("▶"), "\(status)")
        let later = try await play.waitForPosition(atLeast: 2, seconds: 30)
        let spoken = PlayInTmux.spoken(in: later)
        #expect(spoken.contains("lighthouse") && !spoken.contains("Transcript"), "\(later)")
        // Under the words, the keys it reads.
        #expect(PlayInTmux.keys(in: later) == "space pause · ←/→ 5 s · ↑/↓ segment · q quit", "\(later)")

        // Space pauses: once the pane shows it, nothing more reaches the speaker.
        try play.tmux(["send-keys", "-t", play.session, "Space"])
        let paused = try await play.waitForPane("⏸", seconds: 30)
        try await Task.sleep(for: .milliseconds(300))  // the write in progress ends
        let atPause = (bytes: play.reader.bytes, pane: try play.pane())
        try await Task.sleep(for: .milliseconds(1500))
        let afterPause = (bytes: play.reader.bytes, pane: try play.pane())
        // At most what the shrunk pipe and one device period hold (1.5 s playing would be 48 000).
        #expect(afterPause.bytes - atPause.bytes <= 8192, "read \(afterPause.bytes - atPause.bytes) bytes while paused")
        #expect(PlayInTmux.position(in: afterPause.pane) == PlayInTmux.position(in: paused), "\(afterPause.pane)")
        #expect(PlayInTmux.keys(in: afterPause.pane).hasPrefix("space play · "), "\(afterPause.pane)")

        // Up, twice, while paused: back to the first segment's start, its words on the line.
        try play.tmux(["send-keys", "-t", play.session, "Up"])
        try await Task.sleep(for: .milliseconds(300))
        try play.tmux(["send-keys", "-t", play.session, "Up"])
        let back = try await play.waitForPane("Transcript", seconds: 30)
        #expect(PlayInTmux.position(in: back) == 0 && back.contains("⏸"), "\(back)")
        // A jump drops what the device buffered (400 ms): a sound card throws it away, ALSA's
        // file plugin writes it out first. Beyond that, nothing plays while paused.
        #expect(play.reader.bytes - afterPause.bytes <= 8192 + 12_800, "a jump while paused plays nothing")

        // Space again plays on from there.
        try play.tmux(["send-keys", "-t", play.session, "Space"])
        let resumedFrom = play.reader.bytes
        let deadline = Date().addingTimeInterval(30)
        while play.reader.bytes - resumedFrom < 16_000, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(play.reader.bytes - resumedFrom >= 16_000, "resumed")

        // q quits at once (well before the end), clears the lines and restores the terminal.
        try play.tmux(["send-keys", "-t", play.session, "q"])
        let exit = try await play.waitForExit(seconds: 10)
        #expect(exit.status == 0, "\(exit.pane)")
        #expect(play.reader.bytes < Int(Self.recordingSeconds) * Self.bytesPerSecond / 2)
        #expect(exit.terminalRestored, "\(exit.stty)")
        #expect(!exit.pane.contains("Transcript of") && !exit.pane.contains("lighthouse") && !exit.pane.contains("q quit"),
                "lines cleared: \(exit.pane)")
    }

    @Test func inTheBackgroundItPlaysWithoutTouchingTheTerminal() async throws {
        // The terminal belongs to the job in the foreground (here the shell's `stty`): a job in
        // the background leaves its mode alone (and is not stopped for trying).
        let play = try PlayInTmux(seconds: 3, background: true)
        defer { play.close() }
        try await play.start()
        // It draws, but with no keys line: it reads none.
        let drawn = try await play.waitForPane("/ 00:03", seconds: 15)
        #expect(PlayInTmux.keys(in: drawn).isEmpty && !drawn.contains("q quit"), "\(drawn)")
        let exit = try await play.waitForExit(seconds: 15)
        #expect(exit.status == 0, "\(exit.pane)")
        let during = (try? String(contentsOf: play.sttyDuringFile, encoding: .utf8)) ?? ""
        #expect(PlayInTmux.isCooked(stty: during), "while playing in the background: \(during)")
        #expect(exit.terminalRestored, "\(exit.stty)")
        #expect(play.reader.bytes > 3 * Self.bytesPerSecond / 2, "played: \(play.reader.bytes) bytes")
    }

    @Test func theCraftedAnswersRecordingPlaysWithItsKeysAndRestoresTheTerminal() async throws {
        // The answer that once stored a segment at 9e15 s (HostileAnswerTimesTests.crafted).
        let play = try PlayInTmux(seconds: Self.recordingSeconds, rules: [.init(responses: [], then: .body(HostileAnswerTimesTests.crafted))])
        defer { play.close() }
        try await play.start()
        _ = try await play.waitForPane("/ 01:00", seconds: 30)
        // ↓ to the next segment (there is none after the last), ↑ back, End, then q.
        for key in ["Down", "Down", "Up", "End", "Down"] {
            try play.tmux(["send-keys", "-t", play.session, key])
            try await Task.sleep(for: .milliseconds(300))
        }
        try play.tmux(["send-keys", "-t", play.session, "q"])
        let exit = try await play.waitForExit(seconds: 10)
        #expect(exit.status == 0, "\(exit.pane)")
        #expect(exit.terminalRestored, "\(exit.stty)")
    }

    @Test func ctrlCExits130AndRestoresTheTerminal() async throws {
        let play = try PlayInTmux(seconds: Self.recordingSeconds)
        defer { play.close() }
        try await play.start()
        _ = try await play.waitForPane("/ 01:00", seconds: 30)
        try await Task.sleep(for: .milliseconds(500))
        try play.tmux(["send-keys", "-t", play.session, "C-c"])
        let exit = try await play.waitForExit(seconds: 10)
        #expect(exit.status == 130, "\(exit.pane)")
        #expect(exit.terminalRestored, "\(exit.stty)")
        #expect(play.reader.bytes < Int(Self.recordingSeconds) * Self.bytesPerSecond / 2)
    }
}

/// One `voicejournal play --recording 1` in a detached tmux session of its own (its own server
/// socket), 100 columns by 10 lines, with a transcribed recording to play.
private final class PlayInTmux {
    let folder: TemporaryFolder
    let harness: TranscribeHarness
    let speaker: VirtualSpeaker
    let reader: FIFOReader
    /// The server's socket, in the test's folder (gone with it).
    var socket: String { folder.path("tmux.sock").path }
    let session = "play"
    /// Started as a background job (`&` with job control on) rather than in the foreground.
    let background: Bool

    /// A `seconds` long recording named "lighthouse", transcribed by the stub server ("Transcript
    /// of" until 1.5 s, then "lighthouse."), and the speaker whose file is a FIFO.
    init(seconds: Double, background: Bool = false, rules: [StubWhisperServer.Rule] = []) throws {
        self.background = background
        harness = try TranscribeHarness(rules: rules)
        folder = harness.folder
        let audio = try makeTone(at: folder.path("lighthouse.wav"), seconds: seconds)
        let transcribed = try harness.binary.run(["transcribe", audio.path])
        guard transcribed.status == 0 else { throw PaneProblem("transcribe failed: \(transcribed.stderr)") }
        speaker = try VirtualSpeaker(in: folder.url)
        guard mkfifo(speaker.outfile.path, 0o600) == 0 else { throw POSIXError(.EEXIST) }
        reader = try FIFOReader(path: speaker.outfile.path, bytesPerSecond: PlayTerminalTests.bytesPerSecond)
    }

    var statusFile: URL { folder.path("exit-status") }
    var sttyFile: URL { folder.path("stty") }
    var sttyDuringFile: URL { folder.path("stty-during") }

    /// Starts the pane: the command, then its exit status and `stty -a` of the same terminal.
    func start() async throws {
        var environment = harness.binary.environment.merging(speaker.environment) { $1 }
        environment["XDG_CONFIG_HOME"] = harness.binary.configFolder.path
        environment["NO_COLOR"] = "1"
        environment["LANG"] = "C.UTF-8"
        let exports = environment.map { "export \($0.key)=\(Self.quoted($0.value))" }.joined(separator: "\n")
        let script = folder.path("play.sh")
        let play = "\(Self.quoted(VoicejournalBinary.executable.path)) --home \(Self.quoted(harness.binary.home.path)) play --recording 1 --device \(speaker.name)"
        // The trap keeps the script going past Ctrl-C (sent to the whole foreground group) to
        // report the status; a caught signal is back to its default in the command it starts.
        try """
            trap : INT
            \(exports)
            \(background ? "set -m\n\(play) &\nsleep 1.5\nstty -a > \(Self.quoted(sttyDuringFile.path))\nwait $!" : play)
            echo $? > \(Self.quoted(statusFile.path)).part
            stty -a > \(Self.quoted(sttyFile.path))
            mv \(Self.quoted(statusFile.path)).part \(Self.quoted(statusFile.path))
            sleep 30
            """.write(to: script, atomically: true, encoding: .utf8)
        // The server tmux forks would inherit every descriptor not closed on exec, among them
        // the one Foundation watches to learn that its child ended (and `runTool`'s pipes):
        // started as it is, this would wait for the server to exit. bash closes them first.
        // It would also inherit the signal mask and ignored signals of the test-runner thread
        // that started it (Ctrl-C must reach `play` as it would from a shell): Python starts it
        // with nothing blocked and the stop signals at their defaults.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let cleanSignals = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE)]; "
            + "os.execvp(sys.argv[1], sys.argv[1:])"
        process.arguments = ["-c", #"for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done 2>/dev/null; exec "$@""#,
                             "bash", "python3", "-c", cleanSignals, "tmux", "-S", socket, "new-session", "-d", "-s", session, "-x", "100", "-y", "10",
                             "sh " + Self.quoted(script.path)]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PaneProblem("tmux new-session exited \(process.terminationStatus)") }
        reader.start()
    }

    /// Runs tmux on this test's own server.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try runTool("tmux", ["-S", socket] + arguments)
    }

    /// What the pane shows now.
    func pane() throws -> String { try tmux(["capture-pane", "-p", "-t", session]) }

    /// The pane once it contains `text`.
    func waitForPane(_ text: String, seconds: Double) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        while Date() < deadline {
            shown = try pane()
            if shown.contains(text) { return shown }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PaneProblem("\(text) never showed; the pane:\n\(shown)")
    }

    /// The pane once the status line's elapsed time is at least `position` seconds.
    func waitForPosition(atLeast position: Int, seconds: Double) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        while Date() < deadline {
            shown = try pane()
            if let now = Self.position(in: shown), now >= position { return shown }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PaneProblem("the position never reached \(position) s (the speaker took \(reader.bytes) bytes); the pane:\n\(shown)")
    }

    /// The command's exit status, the pane then, and `stty -a` of its terminal afterwards.
    func waitForExit(seconds: Double) async throws -> (status: Int32?, pane: String, stty: String, terminalRestored: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !FileManager.default.fileExists(atPath: statusFile.path) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let status = (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let stty = (try? String(contentsOf: sttyFile, encoding: .utf8)) ?? ""
        return (status, try pane(), stty, Self.isCooked(stty: stty))
    }

    /// Whether `stty -a` output shows line editing and echo on.
    static func isCooked(stty: String) -> Bool {
        let flags = Set(stty.split(whereSeparator: { $0.isWhitespace || $0 == ";" }).map(String.init))
        return flags.contains("icanon") && flags.contains("echo")
    }

    func close() {
        // Not kill-server: that is a SIGTERM the server sends itself, and a server started from
        // a test runner may hold SIGTERM blocked. With its one session gone, the server exits.
        _ = try? tmux(["kill-session", "-t", session])
        reader.stop()
    }

    /// The elapsed time of the status line (`▶ 00:03 / 00:08`), in seconds.
    static func position(in pane: String) -> Int? {
        guard let range = pane.range(of: #"(\d\d):(\d\d) / "#, options: .regularExpression) else { return nil }
        let parts = pane[range].prefix(5).split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    /// The line under the status line: the segment being spoken.
    static func spoken(in pane: String) -> String {
        let lines = pane.split(separator: "\n", omittingEmptySubsequences: false)
        guard let status = lines.firstIndex(where: { $0.contains(" / ") }), status + 1 < lines.count else { return "" }
        return String(lines[status + 1])
    }

    /// The line under the spoken one: the keys.
    static func keys(in pane: String) -> String {
        let lines = pane.split(separator: "\n", omittingEmptySubsequences: false)
        guard let status = lines.firstIndex(where: { $0.contains(" / ") }), status + 2 < lines.count else { return "" }
        return String(lines[status + 2]).trimmingCharacters(in: .whitespaces)
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// Reads a FIFO at a fixed byte rate on a thread of its own, as a sound card takes samples:
/// the writer blocks while the (shrunk) pipe is full. Counts what it read.
private final class FIFOReader: Sendable {
    private let fd: Int32
    private let bytesPerSecond: Int
    private let state = Mutex((bytes: 0, stopped: false))

    init(path: String, bytesPerSecond: Int) throws {
        fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        // F_SETPIPE_SZ (Linux, not imported: a _GNU_SOURCE macro): the smallest pipe, one page,
        // so the writer is held to the reader's pace within an eighth of a second.
        _ = fcntl(fd, 1031, Int32(4096))
        self.bytesPerSecond = bytesPerSecond
    }

    var bytes: Int { state.withLock { $0.bytes } }

    func start() {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // A token bucket: real time's worth of bytes, at most a tenth of a second saved up
            // (a writer that starts late, or resumes, does not get to run ahead).
            var budget = 0.0
            var last = Date()
            while !state.withLock({ $0.stopped }) {
                Thread.sleep(forTimeInterval: 0.02)
                let now = Date()
                budget = min(budget + now.timeIntervalSince(last) * Double(bytesPerSecond), Double(bytesPerSecond) / 10)
                last = now
                let allowed = Int(budget)
                guard allowed > 0 else { continue }
                let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, allowed)) }
                if got > 0 {
                    budget -= Double(got)
                    state.withLock { $0.bytes += got }
                }
            }
            close(fd)
        }
        thread.start()
    }

    func stop() { state.withLock { $0.stopped = true } }
}

/// A wait on the pane that ran out, with what it showed.
private struct PaneProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
