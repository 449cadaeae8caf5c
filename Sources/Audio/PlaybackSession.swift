import Dispatch
import Foundation
import Logging
import Synchronization

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
    /// Frames from the start of the samples handed to the device so far (the starting offset
    /// included); what is heard trails this by up to the device's buffer.
    public var position: Int64
    /// Frames in the whole of the samples.
    public var totalFrames: Int64
    public var isPaused: Bool
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
}

/// Plays interleaved samples (already in the device's rate and channels) on a dedicated thread,
/// one period per write, with pause, resume and stop from any thread. Watch it through
/// `status()`; wait for it with `result()`.
public final class PlaybackSession: Sendable {
    private let device: PlaybackDevice
    private let samples: [Int16]
    private let startFrame: Int64
    private let logger: Logger
    /// Wakes the playback thread from a pause (resume or stop); extra signals are harmless.
    private let wake = DispatchSemaphore(value: 0)
    /// What the playback thread and callers share; the device is used only by the playback thread.
    private let shared: Mutex<Shared>

    private struct Shared {
        var position: Int64
        var paused = false
        var stopRequested = false
        var started = false
        var outcome: PlaybackResult?
        var waiters: [CheckedContinuation<PlaybackResult, Never>] = []
    }

    /// Prepares to play `samples` (interleaved, at `device.format`'s rate and channels) from
    /// `startFrame` on; the session owns the device from here on.
    public init(device: PlaybackDevice, samples: [Int16], startFrame: Int64 = 0, logger: Logger) {
        self.device = device
        self.samples = samples
        self.logger = logger
        let total = Int64(samples.count / max(device.format.channels, 1))
        self.startFrame = min(max(startFrame, 0), total)
        shared = Mutex(Shared(position: self.startFrame))
    }

    /// Frames in the whole of the samples.
    public var totalFrames: Int64 { Int64(samples.count / max(device.format.channels, 1)) }

    /// Starts the playback thread (once). A session paused before it starts writes nothing
    /// until `resume()`.
    public func start() {
        let first = shared.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let thread = Thread { [self] in playLoop() }
        thread.name = "voicejournal playback"
        thread.qualityOfService = .userInteractive
        thread.start()
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

    /// Ends playback after the write in progress, discarding what the device buffered.
    public func stop() {
        shared.withLock { $0.stopRequested = true }
        wake.signal()
    }

    /// The position, for a display.
    public func status() -> PlaybackStatus {
        shared.withLock { PlaybackStatus(position: $0.position, totalFrames: totalFrames, isPaused: $0.paused) }
    }

    /// True once the playback thread is done.
    public var isFinished: Bool { shared.withLock { $0.outcome != nil } }

    /// Waits until the playback thread is done.
    public func result() async -> PlaybackResult {
        await withCheckedContinuation { continuation in
            let done: PlaybackResult? = shared.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    // MARK: - playback thread

    private enum Next { case play, pause, stop }

    private func playLoop() {
        let channels = device.format.channels
        let total = totalFrames
        var position = startFrame
        var end = PlaybackEnd.finished
        var failure: (any Error)?
        var pausedHere = false
        do {
            while position < total {
                let next: Next = shared.withLock { $0.stopRequested ? .stop : ($0.paused ? .pause : .play) }
                if next == .stop {
                    end = .stopped
                    break
                }
                if next == .pause {
                    if !pausedHere {
                        try device.pause()
                        pausedHere = true
                    }
                    // Woken by resume or stop; the timeout only guards against a lost signal.
                    _ = wake.wait(timeout: .now() + .milliseconds(200))
                    continue
                }
                if pausedHere {
                    try device.resume()
                    pausedHere = false
                }
                let frames = Int(min(Int64(device.format.periodFrames), total - position))
                try samples.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    try device.write(base + Int(position) * channels, frames: frames)
                }
                position += Int64(frames)
                shared.withLock { $0.position = position }
            }
            if end == .stopped {
                device.discard()
            } else {
                try device.drain()
            }
        } catch {
            logger.debug("playback failed", metadata: ["error": "\(error)"])
            device.discard()
            end = .failed
            failure = error
        }
        finish(PlaybackResult(framesPlayed: position - startFrame, position: position,
                              underruns: device.underruns, end: end, error: failure))
    }

    private func finish(_ result: PlaybackResult) {
        if result.underruns > 0 { logger.info("playback underruns", metadata: ["count": "\(result.underruns)"]) }
        let waiting = shared.withLock { state -> [CheckedContinuation<PlaybackResult, Never>] in
            state.outcome = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }
}
