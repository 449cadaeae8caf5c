import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalTranscription
import VoiceJournalSystem

/// What to record and where it belongs.
public struct RecordingRequest: Sendable {
    /// The ALSA PCM name (`default`, `hw:1,0`, `plughw:…`, a name from `~/.asoundrc`).
    public var device: String
    /// PCMs defined in memory instead of ALSA's files (nil: ALSA's usual configuration).
    public var deviceConfiguration: ALSAConfiguration?
    public var format: CaptureFormat
    public var container: AudioContainer
    /// Stop after this long (nil = no limit); counted in frames.
    public var maxSeconds: Double?
    /// Stop once speech was heard and then this many seconds stayed quiet (nil = never).
    public var stopOnSilenceSeconds: Double?
    public var silenceThresholdDBFS: Double
    public var owner: RecordingOwner
    /// Stored with the recording, so the same submission made again finds it (`answer --idempotency-key`).
    public var idempotencyKey: String?
    /// Where the take is cut into pieces that are queued for transcription while it is
    /// recorded (nil: none; the whole file is queued when it ends).
    package var livePieces: LivePieceCutter?

    package init(device: String = "default", deviceConfiguration: ALSAConfiguration? = nil,
                format: CaptureFormat = CaptureFormat(), container: AudioContainer = .wav,
                maxSeconds: Double? = 180, stopOnSilenceSeconds: Double? = nil,
                silenceThresholdDBFS: Double = SilenceDetector.defaultThresholdDBFS, owner: RecordingOwner,
                livePieces: LivePieceCutter? = LivePieceCutter(), idempotencyKey: String? = nil) {
        self.idempotencyKey = idempotencyKey
        self.device = device
        self.deviceConfiguration = deviceConfiguration
        self.format = format
        self.container = container
        self.maxSeconds = maxSeconds
        self.stopOnSilenceSeconds = stopOnSilenceSeconds
        self.silenceThresholdDBFS = silenceThresholdDBFS
        self.owner = owner
        self.livePieces = livePieces
    }
}

/// How a recording ended: the complete row, its queued job, and what happened on the way.
public struct RecordingOutcome: Sendable {
    public var recording: Recording
    /// The queued transcription (wait on it for the transcript).
    public var job: Job
    /// Why capture ended; nil for a file attached rather than recorded.
    public var stopReason: StopReason?
    public var overruns: Int
    public var waitsForWriter: Int
    /// A device or disk failure that cut the take short; what was captured before it is saved.
    public var captureError: (any Error)?
    /// How the take's live pieces ended (nil: it had none).
    package var livePieces: LivePlanEnding?

    /// Throws `StoreError.inconsistent` when the recording's or the job's row has no id.
    package init(recording: Recording, job: Job, stopReason: StopReason? = nil, overruns: Int = 0,
                waitsForWriter: Int = 0, captureError: (any Error)? = nil, livePieces: LivePlanEnding? = nil) throws {
        recordingId = try recording.storedId()
        jobId = try job.storedId()
        self.livePieces = livePieces
        self.recording = recording
        self.job = job
        self.stopReason = stopReason
        self.overruns = overruns
        self.waitsForWriter = waitsForWriter
        self.captureError = captureError
    }

    public let recordingId: Int64
    public let jobId: Int64
}

/// One take from the microphone into the journal: the device is opened first (so a wrong
/// name costs nothing), then the file and its `recording` row are created together, capture
/// runs, and `finish()` finalises the file and completes the row with its queued job.
public final class RecordingSession: Sendable {
    /// The row as written when capture started (state `recording`).
    public let recording: Recording
    public let capture: CaptureSession
    /// The format the device agreed to.
    public let format: CaptureFormat
    public let url: URL
    private let writer: SoundFileWriter
    private let store: JournalStore
    private let logger: Logger
    private let pieces: LivePieces?

    private init(recording: Recording, capture: CaptureSession, format: CaptureFormat, writer: SoundFileWriter,
                 store: JournalStore, pieces: LivePieces?, logger: Logger) {
        self.pieces = pieces
        self.recording = recording
        self.capture = capture
        self.format = format
        self.url = writer.url
        self.writer = writer
        self.store = store
        self.logger = logger
    }

    /// The recording's transcription job while live pieces are queued for it (nil: none).
    public var liveJobId: Int64? { pieces?.jobId }

    /// Opens the device, creates the file and rows, and starts capturing. With live pieces,
    /// `onPiece` is told each piece's job id as it is queued.
    public static func start(_ request: RecordingRequest, store: JournalStore, now: Date = Date(),
                             onPiece: @escaping @Sendable (Int64) -> Void = { _ in },
                             logger: Logger) throws -> RecordingSession {
        try store.checkOwner(request.owner)
        let device = try CaptureDevice(name: request.device, format: request.format, configuration: request.deviceConfiguration)
        let format = device.format
        if format.sampleRate != request.format.sampleRate {
            logger.info("device rate differs", metadata: ["asked": "\(request.format.sampleRate)", "got": "\(format.sampleRate)"])
        }
        let folder = store.home.audioFolder(for: now)
        try store.home.createPrivateFolder(folder)
        let stamp = fileStamp(now)
        let (recording, writer) = try store.beginRecording(
            owner: request.owner, format: request.container.fileExtension,
            sampleRate: format.sampleRate, channels: format.channels, idempotencyKey: request.idempotencyKey, now: now
        ) { id in
            let url = folder.appendingPathComponent("\(stamp)-\(id).\(request.container.fileExtension)")
            // The id and time in the metadata make every take's bytes (and so its sha256) unique,
            // even when two takes hold the same samples.
            let writer = try SoundFileWriter(creating: url, container: request.container, sampleRate: format.sampleRate,
                                             channels: format.channels, comment: "voicejournal recording \(id) \(stamp)")
            return (url.path, writer)
        }
        let pieces = request.livePieces.flatMap { cutter in
            livePieces(for: recording, format: format, cutter: cutter, store: store, now: now, onPiece: onPiece, logger: logger)
        }
        var tap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?
        if let pieces { tap = { pieces.take($0) } }
        let capture = CaptureSession(device: device, writer: writer, limits: limits(request, format: format),
                                     tap: tap, logger: logger)
        capture.start()
        logger.info("recording", metadata: ["id": "\(recording.id.map(String.init) ?? "-")", "path": "\(writer.url.path)"])
        return RecordingSession(recording: recording, capture: capture, format: format, writer: writer,
                                store: store, pieces: pieces, logger: logger)
    }

    /// Queues the recording's job as an open plan of live pieces and starts cutting them. A
    /// failure here costs the live transcription only: the whole file is queued at the end.
    private static func livePieces(for recording: Recording, format: CaptureFormat, cutter: LivePieceCutter,
                                   store: JournalStore, now: Date, onPiece: @escaping @Sendable (Int64) -> Void,
                                   logger: Logger) -> LivePieces? {
        guard let id = recording.id else { return nil }
        var jobId: Int64?
        do {
            let planned = try store.queue.beginLivePieces(recordingId: id, now: now).storedId()
            jobId = planned
            return try LivePieces(jobId: planned, recordingId: id, queue: store.queue, format: format, owner: LeaseOwner.current(),
                                  cutter: cutter, logger: logger, onPiece: onPiece)
        } catch {
            logger.warning("no live transcription for this take", metadata: ["error": "\(error)"])
            if let jobId { _ = try? LiveTail.end(jobId: jobId, recordingId: id, lastPieces: [], durationSeconds: 0, queue: store.queue) }
            return nil
        }
    }

    /// The same capture, metering and file writing as `start`, into `url`, without the store
    /// (no rows, no sha256): what `scripts/bench/bench-capture` measures against `arecord`.
    /// The caller closes the writer once the session has finished.
    public static func captureOnly(_ request: RecordingRequest, to url: URL,
                                   logger: Logger) throws -> (CaptureSession, SoundFileWriter) {
        let device = try CaptureDevice(name: request.device, format: request.format, configuration: request.deviceConfiguration)
        let format = device.format
        let writer = try SoundFileWriter(creating: url, container: request.container, sampleRate: format.sampleRate,
                                         channels: format.channels)
        let capture = CaptureSession(device: device, writer: writer, limits: limits(request, format: format), logger: logger)
        capture.start()
        return (capture, writer)
    }

    private static func limits(_ request: RecordingRequest, format: CaptureFormat) -> CaptureLimits {
        CaptureLimits(
            maxFrames: request.maxSeconds.map { format.frames(seconds: $0) },
            silence: request.stopOnSilenceSeconds.map {
                SilenceDetector(seconds: $0, sampleRate: format.sampleRate, thresholdDBFS: request.silenceThresholdDBFS)
            },
            // Two header updates per second of audio: a killed recorder loses at most half a second.
            headerUpdateFrames: Int64(format.sampleRate / 2))
    }

    /// Asks the capture to end (Enter, a signal); audio already captured is kept.
    public func stop(_ reason: StopReason) { capture.stop(reason) }

    /// Waits for the capture to end, finalises the file and completes the row (sha256,
    /// duration from frames, size, levels) with its queued transcription.
    public func finish() async throws -> RecordingOutcome {
        let result = await capture.result()
        let id = try recording.storedId()
        let writer = self.writer, url = self.url
        let durationSeconds = Double(result.frames) / Double(format.sampleRate)
        var ending: LivePlanEnding?
        if let pieces {
            // The last piece is queued before the file is even closed and hashed: its upload
            // starts at once. (The writer has brought the header up to date by now.)
            do {
                ending = try await onThread { try pieces.finish(recording: url, durationSeconds: durationSeconds) }
            } catch {
                _ = try? await onThread { try writer.close() }
                throw error
            }
        }
        try await onThread { try writer.close() }
        guard result.frames > 0 else {
            try? FileManager.default.removeItem(at: url)
            try store.discardRecording(id: id)
            if let error = result.error { throw error }
            throw RecordingError(.nothingRecorded, "nothing was recorded from \(capture.deviceName); the take was discarded")
        }
        let facts = try await onThread {
            let stamp = FileStamp.current(path: url.path) // before hashing, as every stamp
            return RecordingFacts(sha256: try ContentDigest.sha256(fileAt: url),
                                  durationSeconds: durationSeconds,
                                  sizeBytes: try stamp?.sizeBytes ?? Self.fileSize(url),
                                  modifiedNanoseconds: stamp?.modifiedNanoseconds,
                                  peakDBFS: result.levels.peakDBFS, rmsDBFS: result.levels.rmsDBFS)
        }
        guard let completed = try store.completeRecording(id: id, facts: facts) else {
            throw RecordingError(.completedElsewhere, "recording \(id) was completed by another process")
        }
        return try RecordingOutcome(recording: completed.recording, job: completed.job, stopReason: result.stopReason,
                                overruns: result.overruns, waitsForWriter: result.waitsForWriter, captureError: result.error,
                                livePieces: ending)
    }

    static func fileSize(_ url: URL) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func fileSizeOrZero(_ url: URL) -> Int64 { (try? fileSize(url)) ?? 0 }

    /// `20250314-093015`: local time, sorts by name.
    static func fileStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
