import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalTerminal
import VoiceJournalSystem

/// What a take shows while it runs, for the command to draw.
package enum TakeProgress: Sendable {
    /// Capture started, into this file (nil: nothing is saved).
    case started(file: URL?)
    /// About twenty times a second while capturing, and once more when it ends (`finished`).
    case meter(LevelDisplay.Frame)
    /// The take is saved; its live transcript is awaited next.
    case saved(RecordingOutcome)
    /// Lines (escaped) that came while the live transcript is awaited.
    case lines([String])
}

/// How a take ended.
package struct TakeResult: Sendable {
    package var outcome: RecordingOutcome
    /// How its live transcription ended; nil without one, or when the take was interrupted or
    /// failed (its transcription is then queued).
    package var live: LiveEnding?

    package init(outcome: RecordingOutcome, live: LiveEnding? = nil) {
        self.outcome = outcome
        self.live = live
    }
}

/// How the wait for a take's live transcript ended.
package enum LiveEnding: Sendable {
    case transcribed(Transcript)
    /// No server can be reached (or none answers): the take's pieces stay queued.
    case unreachable
    /// Interrupted while waiting: the take's pieces stay queued.
    case interrupted
    /// The job ended without a transcript; `reason` is its last error (or its state).
    case notTranscribed(reason: String)
}

/// Takes from the microphone, start to end: the device opened, capture with a level meter
/// (given to `progress` to draw) until Enter, a signal (`stop`), a limit or silence, the file
/// and rows completed, and with a live runner the pieces transcribed as they are cut.
package enum Recorder {
    private enum Tick: Sendable {
        case meter
        case report(InProcessTranscriber.Report)
        case ended(InProcessTranscriber.Ending)
    }

    /// Records one take into the journal. With `live`, its pieces are transcribed while it is
    /// recorded (their text among the meter's lines with `showTexts`) and, once it is saved
    /// (`.saved`), the rest is awaited. A refused key, a failed store or a failed capture
    /// start is thrown; everything after the take is saved is in the result.
    package static func record(_ request: RecordingRequest, store: JournalStore, live runner: QueueRunner? = nil,
                              showTexts: Bool = true, stop: StopButton, logger: Logger,
                              progress: (TakeProgress) -> Void) async throws -> TakeResult {
        let (ticks, feed) = AsyncStream.makeStream(of: Tick.self)
        defer { feed.finish() }
        let transcriber = runner.map { runner in
            InProcessTranscriber(recordingWith: runner, queue: store.queue, texts: showTexts) { feed.yield(.report($0)) }
        }
        let session = try RecordingSession.start(request, store: store, onPiece: { transcriber?.pieceQueued($0) }, logger: logger)
        if let transcriber, let jobId = session.liveJobId { transcriber.follow(jobId: jobId) }
        progress(.started(file: session.url))
        var next = ticks.makeAsyncIterator()
        await meter(session.capture, stop: stop, feed: feed, next: &next, progress: progress)
        let outcome: RecordingOutcome
        do {
            outcome = try await session.finish()
        } catch {
            await transcriber?.stop()
            throw error
        }
        guard let transcriber else { return TakeResult(outcome: outcome) }
        var interrupted = false
        if case .interrupted = outcome.stopReason { interrupted = true }
        guard outcome.captureError == nil, !interrupted else {
            await transcriber.stop()
            return TakeResult(outcome: outcome)
        }
        progress(.saved(outcome))
        let jobId = outcome.jobId
        if case .assembled = outcome.livePieces {
            await transcriber.stop()
        } else {
            if !transcriber.isFollowing { transcriber.follow(jobId: jobId) }
            transcriber.nudge() // the plan was closed, maybe assembled already
            stop.wire(to: transcriber)
            let waiting = Task { feed.yield(.ended(await transcriber.finish())) }
            defer { waiting.cancel() }
            var ending: InProcessTranscriber.Ending?
            waiting: while let tick = await next.next() {
                switch tick {
                case .meter: continue
                case .report(let report): progress(.lines([line(report)]))
                case .ended(let end):
                    ending = end
                    break waiting
                }
            }
            switch ending {
            case nil: // this task was cancelled
                await transcriber.stop()
                return TakeResult(outcome: outcome, live: .interrupted)
            case .finished?: break
            case .unreachable?: return TakeResult(outcome: outcome, live: .unreachable)
            case .stopped?: return TakeResult(outcome: outcome, live: .interrupted)
            case .failed(let error)?: throw error // a refused key or no quota: reported by its kind
            }
        }
        let recordingId = outcome.recordingId
        if let transcript = try await onThread({ try store.transcript(recordingId: recordingId) }) {
            return TakeResult(outcome: outcome, live: .transcribed(transcript))
        }
        let job = try await onThread { try store.queue.jobs(ids: [jobId])[jobId] }
        return TakeResult(outcome: outcome, live: .notTranscribed(reason: job?.lastError ?? "job \(jobId) is \(job?.state.rawValue ?? "gone")"))
    }

    /// The live input level of `device` until `stop`, `seconds` or the device ends; nothing is
    /// saved. `configuration` defines PCMs in memory instead of ALSA's files.
    package static func listen(device: String, format: CaptureFormat, seconds: Double?, stop: StopButton,
                              configuration: ALSAConfiguration? = nil, logger: Logger,
                              progress: (TakeProgress) -> Void) async throws -> CaptureResult {
        let captureDevice = try CaptureDevice(name: device, format: format, configuration: configuration)
        let limits = CaptureLimits(maxFrames: seconds.map { captureDevice.format.frames(seconds: $0) },
                                   headerUpdateFrames: Int64(captureDevice.format.sampleRate))
        let session = CaptureSession(device: captureDevice, writer: nil, limits: limits, logger: logger)
        session.start()
        progress(.started(file: nil))
        await meter(session, stop: stop, progress: progress)
        return await session.result()
    }

    /// The capture, metering and file writing of `record` into `url`, without the store (no
    /// rows, no sha256): what `scripts/bench/bench-capture` measures against `arecord`.
    package static func captureOnly(_ request: RecordingRequest, to url: URL, stop: StopButton, logger: Logger,
                                   progress: (TakeProgress) -> Void) async throws -> CaptureResult {
        let (session, writer) = try RecordingSession.captureOnly(request, to: url, logger: logger)
        progress(.started(file: url))
        await meter(session, stop: stop, progress: progress)
        let result = await session.result()
        try writer.close()
        return result
    }

    /// The same for a capture with nothing else to report (no live transcription).
    private static func meter(_ capture: CaptureSession, stop: StopButton, progress: (TakeProgress) -> Void) async {
        let (ticks, feed) = AsyncStream.makeStream(of: Tick.self)
        defer { feed.finish() }
        var next = ticks.makeAsyncIterator()
        await meter(capture, stop: stop, feed: feed, next: &next, progress: progress)
    }

    /// Gives `progress` the capture's level about twenty times a second until it ends, with
    /// the lines reported meanwhile; `stop` stops the capture.
    private static func meter(_ capture: CaptureSession, stop: StopButton, feed: AsyncStream<Tick>.Continuation,
                              next: inout AsyncStream<Tick>.Iterator, progress: (TakeProgress) -> Void) async {
        stop.wire(to: capture)
        let clock = Task {
            while !Task.isCancelled {
                feed.yield(.meter)
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { clock.cancel() }
        var lines: [String] = []
        while let tick = await next.next() {
            guard case .meter = tick else {
                if case .report(let report) = tick { lines.append(line(report)) }
                continue
            }
            let finished = capture.isFinished
            let status = capture.status()
            let seconds = capture.takeSecondSummaries().map {
                LevelDisplay.Second(second: $0.second, peakDBFS: $0.level.peakDBFS, rmsDBFS: $0.level.rmsDBFS, clipped: $0.level.clipped)
            }
            let level = MeterLine.State(seconds: status.seconds, peakDBFS: status.latest.peakDBFS, rmsDBFS: status.latest.rmsDBFS,
                                        holdDBFS: status.holdDBFS, clipped: status.clippedRecently)
            progress(.meter(LevelDisplay.Frame(level: level, seconds: seconds, lines: lines, finished: finished)))
            lines.removeAll()
            if finished { return }
        }
    }

    /// A report as the line shown: a piece's text as it is, a notice after the program's name.
    static func line(_ report: InProcessTranscriber.Report) -> String {
        if case .pieceText(let text) = report { return TerminalText.escaped(text) }
        return "voicejournal: " + report.text
    }
}

extension TakeProgress {
    /// The text that shows this on stderr, the meter drawn by `display`; `hint` says what is
    /// measured, given the file once it is known.
    package func text(on display: inout LevelDisplay, hint: (URL?) -> String) -> String {
        switch self {
        case .started(let file): display.start(hint: hint(file))
        case .meter(let frame): display.render(frame)
        case .lines(let lines): LevelDisplay.plain(lines)
        case .saved: ""
        }
    }
}

extension TakeResult {
    /// Says how a live take ended (the recording said already, unless `json`): its transcript
    /// to `say`, or why there is none (to `warn`, or as the ending), with the recording as JSON
    /// when it is still to be said. A take without live transcription is said as its recording
    /// (`RecordingOutcome.report`).
    package func report(json: Bool, say: (String) -> Void, warn: (String) -> Void) throws -> TakeEnding {
        let explanation = self.explanation ?? ""
        switch live {
        case nil: return try outcome.report(json: json, say: say, warn: warn)
        case .transcribed(let transcript)?:
            say(json ? try outcome.jsonText(transcript: transcript) : "\n" + TerminalText.escapedLines(transcript.text))
        case .unreachable?:
            warn(explanation)
            if json { say(try outcome.jsonText()) }
        case .interrupted?:
            if json { say(try outcome.jsonText()) }
            return .interrupted(explanation)
        case .notTranscribed?: return .failed(explanation)
        }
        return .done
    }

    /// Why the live transcript did not come and what to do (nil: it came, or none was awaited).
    package var explanation: String? {
        let recordingId = outcome.recordingId, jobId = outcome.jobId
        switch live {
        case nil, .transcribed: return nil
        case .unreachable: return "the server cannot be reached (or does not answer); the transcription is queued "
            + "(job \(jobId)): run `voicejournal queue run` when it is back"
        case .interrupted: return "interrupted; recording \(recordingId) is saved and its transcription stays queued "
            + "(job \(jobId)): run `voicejournal queue run` to finish it"
        case .notTranscribed(let reason): return "recording \(recordingId) was saved but not transcribed: \(reason); "
            + "retry with: voicejournal queue retry \(jobId)"
        }
    }
}
