import Dispatch
import Foundation
import Logging
import Synchronization
import VoiceJournalSystem

/// Why playback ended.
public enum PlaybackEnd: Sendable, Equatable {
    /// Every sample was played (and drained).
    case finished
    /// A caller's `stop()`; what was buffered and not yet heard was thrown away.
    case stopped
    /// The device failed; `PlaybackResult.error` says how.
    case failed
}

/// Where playback is, for a position display.
public struct PlaybackStatus: Sendable, Equatable {
    /// Frames from the start of the audio handed to the device so far (the starting offset
    /// included), in the device's frames; what is heard trails this by the device's buffer.
    public var position: Int64
    /// Frames in the whole of the audio, in the device's frames (an estimate while
    /// `totalSeconds` is nil).
    public var totalFrames: Int64
    public var isPaused: Bool
    /// Where the listener is, in seconds from the start of the audio: what was handed to the
    /// device minus what it still holds.
    public var seconds: Double
    /// The audio's length in seconds; nil while it is not known (a browser's WebM states none
    /// until it has been decoded to its end).
    public var totalSeconds: Double?
    /// Where playback stops, in seconds (the `to` asked for, else the end as far as known).
    public var endSeconds: Double
    /// The level of the audio being heard (the last block written when the device cannot say),
    /// dBFS; `PlaybackSession.silentDBFS` when silent or not measured.
    public var peakDBFS: Double
    public var rmsDBFS: Double
}

/// How playback went.
public struct PlaybackResult: Sendable {
    /// Frames handed to the device in this session (not counting the starting offset).
    public var framesPlayed: Int64
    /// Where playback ended, in frames from the start of the samples.
    public var position: Int64
    /// Underruns the device reported and recovered from.
    public var underruns: Int
    public var end: PlaybackEnd
    /// The device error that ended it, when `end` is `.failed`.
    public var error: (any Error)?
    /// The audio ran out before the length the file declared when playback started: the
    /// file was cut (truncated, replaced) while it played, and what is missing was not heard.
    public var cutShort = false

    /// A result (the session makes its own; a player that stops waiting for a device that no
    /// longer returns from a write makes one from the last status).
    public init(framesPlayed: Int64, position: Int64, underruns: Int, end: PlaybackEnd, error: (any Error)? = nil) {
        self.framesPlayed = framesPlayed
        self.position = position
        self.underruns = underruns
        self.end = end
        self.error = error
    }
}

/// Plays audio (samples in memory, or a file decoded as it plays: `init(file:…)`) on a
/// dedicated thread, one period per write, with pause, resume, jumps and stop from any thread.
/// Watch it through `status()`; wait for it with `result()`.
public final class PlaybackSession: Sendable {
    /// The level reported for silence (and when levels are not measured).
    public static let silentDBFS = -120.0

    private let device: PlaybackDevice
    // Only the playback thread touches the frames once `start()` ran (before, only init).
    nonisolated(unsafe) private let frames: any FrameProvider
    private let startFrame: Int64
    private let endFrame: Int64?
    private let measuresLevel: Bool
    /// Frames handed to the device per write: a period, so a pause or a jump acts within one;
    /// or more for playback nobody steers (`init(file:…, interactive: false)`).
    private let framesPerWrite: Int
    private let logger: Logger
    /// The file's shape, for a session playing a file.
    public let fileInfo: AudioFileInfo?
    /// True when libsamplerate converts the file's rate to the device's.
    public let isResampled: Bool
    /// Wakes the playback thread from a pause (resume, a jump or stop); extra signals are harmless.
    private let wake = DispatchSemaphore(value: 0)
    /// What the playback thread and callers share; the device is used only by the playback thread.
    private let shared: Mutex<Shared>

    private struct Shared {
        var position: Int64
        /// Frames the device held after the last write (not yet heard).
        var held = 0
        var totalFrames: Int64
        var lengthKnown: Bool
        var paused = false
        var stopRequested = false
        var seekTarget: Int64?
        var started = false
        /// Levels of the blocks written lately, newest last: (frame after the block, peak, rms).
        var levels: [(end: Int64, peak: Double, rms: Double)] = []
        var outcome: PlaybackResult?
        /// Called with the outcome once the playback thread is done (`result()`, `whenFinished`).
        var waiters: [@Sendable (PlaybackResult) -> Void] = []
    }

    /// Prepares to play `samples` (interleaved, at `device.format`'s rate and channels) from
    /// `startFrame` on; the session owns the device from here on.
    public convenience init(device: PlaybackDevice, samples: [Int16], startFrame: Int64 = 0, logger: Logger) {
        self.init(device: device, frames: ReadAhead(SampleArraySource(samples, channels: device.format.channels), device: device.format),
                  startFrame: startFrame, endFrame: nil, measuresLevel: false, fileInfo: nil, isResampled: false, logger: logger)
    }

    init(device: PlaybackDevice, frames: any FrameProvider, startFrame: Int64, endFrame: Int64?, measuresLevel: Bool,
         fileInfo: AudioFileInfo?, isResampled: Bool, framesPerWrite: Int? = nil, logger: Logger) {
        self.device = device
        self.frames = frames
        self.framesPerWrite = max(framesPerWrite ?? device.format.periodFrames, 1)
        self.logger = logger
        self.measuresLevel = measuresLevel
        self.fileInfo = fileInfo
        self.isResampled = isResampled
        let known = frames.isLengthKnown
        let total = frames.totalFrames
        let first = known ? min(max(startFrame, 0), total) : max(startFrame, 0)
        self.startFrame = first
        self.endFrame = endFrame.map { max($0, first) }
        shared = Mutex(Shared(position: first, totalFrames: total, lengthKnown: known))
    }

    /// What the device agreed to play.
    public var deviceFormat: PlaybackFormat { device.format }

    /// Frames in the whole of the audio, in the device's frames (an estimate until known).
    public var totalFrames: Int64 { shared.withLock { $0.totalFrames } }

    /// Starts the playback thread (once). A session paused before it starts writes nothing
    /// until `resume()`.
    public func start() {
        let first = shared.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        DedicatedThread.start(name: "voicejournal playback", qualityOfService: .userInteractive) { [self] in playLoop() }
    }

    /// Stops writing after the write in progress; the device keeps what it buffered.
    public func pause() {
        shared.withLock { $0.paused = true }
    }

    /// Plays on from where `pause()` stopped.
    public func resume() {
        shared.withLock { $0.paused = false }
        wake.signal()
    }

    /// Pauses when playing, resumes when paused.
    public func togglePause() {
        let paused = shared.withLock { state -> Bool in
            state.paused.toggle()
            return state.paused
        }
        if !paused { wake.signal() }
    }

    /// Ends playback after the write in progress, discarding what the device buffered.
    public func stop() {
        shared.withLock { $0.stopRequested = true }
        wake.signal()
    }

    /// Jumps to `seconds` from the start (clamped to the audio and to where it stops): what the
    /// device buffered is dropped, and a paused session stays paused there.
    public func seek(toSeconds seconds: Double) {
        let rate = Double(device.format.sampleRate)
        guard seconds.isFinite else { return }
        let frame = frameCount(seconds: seconds, rate: rate)
        shared.withLock { state in
            var limit = endFrame ?? Int64.max
            if state.lengthKnown { limit = min(limit, state.totalFrames) }
            state.seekTarget = min(frame, limit)
        }
        wake.signal()
    }

    /// Jumps `seconds` forward (or back, when negative) from where the listener is.
    public func skip(seconds: Double) {
        seek(toSeconds: status().seconds + seconds)
    }

    /// The position, for a display.
    public func status() -> PlaybackStatus {
        let rate = Double(max(device.format.sampleRate, 1))
        return shared.withLock { state in
            // A jump asked for but not yet made shows where it goes.
            let heard = state.seekTarget ?? max(state.position - Int64(state.held), startFrame)
            let level = measuresLevel ? state.levels.first { $0.end > heard } ?? state.levels.last : nil
            let total = state.lengthKnown ? Double(state.totalFrames) / rate : nil
            let end = endFrame.map { Double($0) / rate } ?? total ?? Double(state.totalFrames) / rate
            return PlaybackStatus(position: state.position, totalFrames: state.totalFrames, isPaused: state.paused,
                                  seconds: Double(heard) / rate, totalSeconds: total, endSeconds: end,
                                  peakDBFS: level?.peak ?? Self.silentDBFS, rmsDBFS: level?.rms ?? Self.silentDBFS)
        }
    }

    /// True once the playback thread is done.
    public var isFinished: Bool { shared.withLock { $0.outcome != nil } }

    /// How it went, once the playback thread is done; nil before (see `result()` to wait).
    public var finalResult: PlaybackResult? { shared.withLock { $0.outcome } }

    /// Waits until the playback thread is done.
    public func result() async -> PlaybackResult {
        await withCheckedContinuation { continuation in
            whenFinished { continuation.resume(returning: $0) }
        }
    }

    /// Calls `body` with how it went once the playback thread is done: from that thread, or at
    /// once from this one when it is done already. Quick work only (it holds up the thread's end).
    public func whenFinished(_ body: @escaping @Sendable (PlaybackResult) -> Void) {
        let done: PlaybackResult? = shared.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.waiters.append(body)
            return nil
        }
        if let done { body(done) }
    }

    // MARK: - playback thread

    private enum Next { case play, pause, stop, seek(Int64) }

    private func playLoop() {
        let channels = device.format.channels
        let period = framesPerWrite
        var position = startFrame
        var played: Int64 = 0
        var end = PlaybackEnd.finished
        var failure: (any Error)?
        var pausedHere = false
        // What the file said it held when playback started, to tell a cut file from an end.
        let declared = frames.isLengthKnown ? min(frames.totalFrames, endFrame ?? Int64.max) : nil
        do {
            if startFrame > 0 { try frames.seek(toFrame: startFrame) }
            while true {
                let next: Next = shared.withLock { state in
                    if state.stopRequested { return .stop }
                    if let target = state.seekTarget {
                        state.seekTarget = nil
                        return .seek(target)
                    }
                    return state.paused ? .pause : .play
                }
                switch next {
                case .stop:
                    end = .stopped
                case .seek(let target):
                    device.discard()
                    pausedHere = false
                    try frames.seek(toFrame: target)
                    position = target
                    shared.withLock { state in
                        state.position = target
                        state.held = 0
                        state.levels.removeAll()
                    }
                    continue
                case .pause:
                    if !pausedHere {
                        try device.pause()
                        pausedHere = true
                    }
                    // Woken by resume, a jump or stop; the timeout only guards against a lost signal.
                    _ = wake.wait(timeout: .now() + .milliseconds(200))
                    continue
                case .play:
                    break
                }
                if end == .stopped { break }
                if pausedHere {
                    try device.resume()
                    pausedHere = false
                }
                var wanted = period
                if let endFrame { wanted = Int(min(Int64(period), endFrame - position)) }
                guard wanted > 0 else { break }
                var level: (peak: Double, rms: Double)?
                let written = try frames.next(maxFrames: wanted) { samples, count in
                    try device.write(samples, frames: count)
                    if measuresLevel { level = Self.level(of: UnsafeBufferPointer(start: samples, count: count * channels)) }
                }
                guard written > 0 else { break }
                position += Int64(written)
                played += Int64(written)
                let held = device.delay()
                shared.withLock { state in
                    state.position = position
                    state.held = held
                    if position > state.totalFrames { state.totalFrames = position }
                    if let level {
                        state.levels.append((position, level.peak, level.rms))
                        if state.levels.count > 32 { state.levels.removeFirst() }
                    }
                }
            }
            if end == .stopped {
                device.discard()
            } else {
                try device.drain()
                // Played to the end of the audio: its length is now known.
                if endFrame == nil || position < (endFrame ?? 0) {
                    shared.withLock { state in
                        state.totalFrames = position
                        state.lengthKnown = true
                    }
                }
            }
        } catch {
            logger.debug("playback failed", metadata: ["error": "\(error)"])
            device.discard()
            end = .failed
            failure = error
        }
        shared.withLock { $0.held = 0 }
        var result = PlaybackResult(framesPlayed: played, position: position, underruns: device.underruns, end: end, error: failure)
        // A resampled length is an estimate within a frame or two: 20 ms short is not a cut.
        let slack = Int64(device.format.sampleRate / 50)
        result.cutShort = end == .finished && (frames.wasCutShort || declared.map { position + slack < $0 } ?? false)
        finish(result)
    }

    /// Peak and RMS of a block, in dBFS.
    private static func level(of samples: UnsafeBufferPointer<Int16>) -> (peak: Double, rms: Double) {
        let count = samples.count
        var peak: Int32 = 0
        var sum: Double = 0
        for index in 0..<count {
            let value = Int32(samples[index])
            peak = max(peak, abs(value))
            sum += Double(value * value)
        }
        func dbfs(_ amplitude: Double) -> Double { amplitude > 0 ? max(20 * log10(amplitude), silentDBFS) : silentDBFS }
        let rms = count > 0 ? (sum / Double(count)).squareRoot() / 32768 : 0
        return (dbfs(Double(peak) / 32768), dbfs(rms))
    }

    private func finish(_ result: PlaybackResult) {
        if result.underruns > 0 { logger.info("playback underruns", metadata: ["count": "\(result.underruns)"]) }
        let waiting = shared.withLock { state -> [@Sendable (PlaybackResult) -> Void] in
            state.outcome = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter(result) }
    }
}
