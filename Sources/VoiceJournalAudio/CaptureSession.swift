import Foundation
import Logging
import Synchronization
import VoiceJournalSystem

/// Why a capture ended.
public enum StopReason: Sendable, Equatable {
    /// The user asked (Enter, or a caller's `stop`).
    case requested
    /// SIGINT or SIGTERM arrived; the file is still finished properly.
    case interrupted(signal: Int32)
    /// `maxFrames` frames were captured.
    case maxDuration
    /// Speech was heard, then the silence detector's quiet period passed.
    case silence
    /// The device or the disk failed; `CaptureResult.error` says how.
    case failed
}

/// Limits that end a capture by themselves, all counted in frames.
public struct CaptureLimits: Sendable {
    /// Stop after this many frames (nil = no limit).
    public var maxFrames: Int64?
    /// Stop once speech was heard and then this detector saw enough quiet.
    package var silence: SilenceDetector?
    /// Rewrite the file header every this many frames, so a killed recorder loses at most this much.
    public var headerUpdateFrames: Int64

    package init(maxFrames: Int64? = nil, silence: SilenceDetector? = nil, headerUpdateFrames: Int64) {
        self.maxFrames = maxFrames
        self.silence = silence
        self.headerUpdateFrames = max(headerUpdateFrames, 1)
    }
}

/// What the live meter shows: the newest block's level, the peak hold, time from frames.
public struct CaptureStatus: Sendable, Equatable {
    public var frames: Int64
    public var sampleRate: Int
    public var latest: LevelMeter.Reading
    public var holdDBFS: Double
    /// A clipped block within the last second of audio.
    public var clippedRecently: Bool

    /// Elapsed audio time, from frames.
    public var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// The levels of one whole second of audio (for plain, non-TTY meter lines).
public struct SecondSummary: Sendable, Equatable {
    /// 1 for the first second of audio, 2 for the next, …
    public var second: Int
    public var level: LevelMeter.Reading
}

/// How a capture went.
public struct CaptureResult: Sendable {
    /// Frames measured (and written, when there is a file).
    public var frames: Int64
    /// Peak and RMS over the whole take.
    public var levels: LevelMeter.Reading
    /// Overruns the device reported and recovered from.
    public var overruns: Int
    /// Times capture had to wait because the writer was a whole queue behind.
    public var waitsForWriter: Int
    public var stopReason: StopReason
    /// The device or disk error that ended it, when `stopReason` is `.failed`.
    public var error: (any Error)?
}

/// Captures from a device on a dedicated thread and meters (and writes, given a writer) on a
/// second one; the two meet only in a fixed pool of blocks, so the reading thread never waits
/// on the disk or the terminal. Watch it through `status()` and `takeSecondSummaries()`.
public final class CaptureSession: Sendable {
    private let device: CaptureDevice
    private let writer: SoundFileWriter?
    private let limits: CaptureLimits
    private let queue: BlockQueue
    private let format: CaptureFormat
    private let logger: Logger
    /// Handed each written block on the writer thread (live transcription copies it away).
    private let tap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?
    /// What both threads and the callers share; everything else is immutable after init
    /// (the device is used only by the capture thread, the writer only by the writer thread).
    private let shared: Mutex<Shared>

    private struct Shared {
        var stopReason: StopReason?
        var failure: (any Error)?
        var current: CaptureStatus
        var seconds: [SecondSummary] = []
        var outcome: CaptureResult?
        var waiters: [CheckedContinuation<CaptureResult, Never>] = []
        var started = false
    }

    /// The writer thread's own running state; it never leaves that thread.
    private struct Metering {
        var meter: LevelMeter
        var silence: SilenceDetector?
        var lastClipFrame: Int64?
        var secondsPublished = 0
    }

    /// Prepares a capture from `device`, writing to `writer` if given (the session owns both
    /// from here on). `queueSeconds` of audio can wait for the writer before capture waits.
    /// `tap`, if given, sees every block of the take (interleaved samples) on the writer
    /// thread after it is written; it must return at once (copy, never wait).
    public init(device: CaptureDevice, writer: SoundFileWriter?, limits: CaptureLimits,
                queueSeconds: Double = 4, tap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)? = nil, logger: Logger) {
        self.device = device
        self.tap = tap
        self.writer = writer
        self.limits = limits
        self.logger = logger
        format = device.format
        let blockSamples = format.periodFrames * format.channels
        let blocks = Int((queueSeconds * Double(format.sampleRate) / Double(format.periodFrames)).rounded(.up))
        queue = BlockQueue(blocks: blocks, samplesPerBlock: blockSamples)
        shared = Mutex(Shared(current: CaptureStatus(frames: 0, sampleRate: format.sampleRate, latest: .silence,
                                                     holdDBFS: LevelMeter.floorDBFS, clippedRecently: false)))
    }

    /// Starts the capture and writer threads (once).
    public func start() {
        let first = shared.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        DedicatedThread.start(name: "voicejournal capture", qualityOfService: .userInteractive) { [self] in captureLoop() }
        DedicatedThread.start(name: "voicejournal writer") { [self] in writeLoop() }
    }

    /// Asks the capture to end; the first reason given wins. Audio already captured is kept.
    public func stop(_ reason: StopReason) {
        shared.withLock { state in
            if state.stopReason == nil { state.stopReason = reason }
        }
    }

    /// The newest level and time, for a live meter.
    public func status() -> CaptureStatus { shared.withLock { $0.current } }

    /// Seconds of audio completed since the last call, oldest first.
    public func takeSecondSummaries() -> [SecondSummary] {
        shared.withLock { state in
            defer { state.seconds.removeAll() }
            return state.seconds
        }
    }

    /// The PCM name being captured from.
    public var deviceName: String { device.name }

    /// True once both threads are done.
    public var isFinished: Bool { shared.withLock { $0.outcome != nil } }

    /// Waits until both threads are done. The writer (if any) is left open for its owner to close.
    public func result() async -> CaptureResult {
        await withCheckedContinuation { continuation in
            let done: CaptureResult? = shared.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    // MARK: - capture thread

    private func captureLoop() {
        var captured: Int64 = 0
        while shared.withLock({ $0.stopReason == nil }) {
            var want = format.periodFrames
            if let maxFrames = limits.maxFrames {
                let remaining = maxFrames - captured
                if remaining <= 0 {
                    stop(.maxDuration)
                    break
                }
                want = Int(min(Int64(want), remaining))
            }
            let block = queue.takeFree()
            let frames: Int
            do {
                frames = try device.read(into: queue.samples(block), frames: want)
            } catch {
                queue.giveBack(block)
                fail(error)
                break
            }
            guard frames > 0 else {
                queue.giveBack(block)
                fail(ALSAError(.read, function: "snd_pcm_readi", code: -EIO, device: device.name))
                break
            }
            captured += Int64(frames)
            queue.pushFilled(block, frames: frames)
        }
        queue.close()
    }

    // MARK: - writer thread

    private func writeLoop() {
        var metering = Metering(meter: LevelMeter(sampleRate: format.sampleRate, channels: format.channels),
                                silence: limits.silence)
        var discarding = false
        var sinceHeaderUpdate: Int64 = 0
        while case let (block, frames)? = queue.takeFilled() {
            defer { queue.giveBack(block) }
            if discarding { continue }
            let (kept, endedInSilence) = measure(queue.samples(block), frames: frames, with: &metering)
            if let writer {
                do {
                    try writer.write(queue.samples(block), frames: kept)
                    sinceHeaderUpdate += Int64(kept)
                    if sinceHeaderUpdate >= limits.headerUpdateFrames {
                        try writer.updateHeader()
                        sinceHeaderUpdate = 0
                    }
                } catch {
                    fail(error)
                    discarding = true
                    continue
                }
            }
            tap?(UnsafeBufferPointer(start: queue.samples(block), count: kept * format.channels))
            if endedInSilence {
                // Whatever capture read after this point is past the end of the take. Capture
                // may already have reached its frame limit further ahead, but in the audio the
                // take ends here, so silence is the reason.
                shared.withLock { state in
                    if state.stopReason == nil || state.stopReason == .maxDuration { state.stopReason = .silence }
                }
                discarding = true
            }
        }
        do {
            try writer?.updateHeader()
        } catch {
            fail(error)
        }
        finish(metering)
    }

    /// Meters one read in 50 ms slices, publishes the newest level and any finished seconds,
    /// and says how many frames belong to the take (fewer if it ended in silence mid-read).
    private func measure(_ samples: UnsafeMutablePointer<Int16>, frames: Int,
                         with metering: inout Metering) -> (kept: Int, endedInSilence: Bool) {
        let rate = Int64(format.sampleRate)
        var offset = 0
        var reading = LevelMeter.Reading.silence
        var finished: [SecondSummary] = []
        var endedInSilence = false
        while offset < frames {
            let slice = min(format.meterFrames, frames - offset)
            reading = metering.meter.measure(UnsafeBufferPointer(start: samples + offset * format.channels, count: slice * format.channels))
            offset += slice
            if reading.clipped { metering.lastClipFrame = metering.meter.frames }
            if metering.meter.frames / rate > Int64(finished.last?.second ?? metering.secondsPublished) {
                finished.append(SecondSummary(second: Int(metering.meter.frames / rate), level: metering.meter.takeSection()))
            }
            if metering.silence?.shouldStop(after: reading, frames: slice) == true {
                endedInSilence = true
                break
            }
        }
        metering.secondsPublished = finished.last?.second ?? metering.secondsPublished
        let meterFrames = metering.meter.frames
        let status = CaptureStatus(
            frames: meterFrames, sampleRate: format.sampleRate, latest: reading, holdDBFS: metering.meter.holdDBFS,
            clippedRecently: metering.lastClipFrame.map { meterFrames - $0 < rate } ?? false)
        shared.withLock { state in
            state.current = status
            state.seconds += finished
        }
        return (offset, endedInSilence)
    }

    private func fail(_ error: any Error) {
        logger.debug("capture failed", metadata: ["error": "\(error)"])
        shared.withLock { state in
            if state.failure == nil { state.failure = error }
            if state.stopReason == nil || state.stopReason == .requested { state.stopReason = .failed }
        }
    }

    private func finish(_ metering: Metering) {
        let overruns = device.overruns  // the capture thread has closed the queue: it is done with the device
        if overruns > 0 { logger.info("capture overruns", metadata: ["count": "\(overruns)"]) }
        let (result, waiting) = shared.withLock { state -> (CaptureResult, [CheckedContinuation<CaptureResult, Never>]) in
            let result = CaptureResult(frames: metering.meter.frames, levels: metering.meter.overall, overruns: overruns,
                                       waitsForWriter: queue.waitsForSpace, stopReason: state.stopReason ?? .requested,
                                       error: state.failure)
            state.outcome = result
            defer { state.waiters.removeAll() }
            return (result, state.waiters)
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }
}
