import ArgumentParser
import Audio
import Foundation
import Logging
import Recording
import Store
import Terminal
import Transcription

/// `record` — capture from the microphone into a new voice entry (or an assignment's answer).
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record from the microphone with a live level meter",
        discussion: """
            Stops on Enter, Ctrl-C (the file is still saved; exit 130), --max-duration, or \
            --stop-on-silence. The file goes to <home>/audio/YYYY/MM/ and a voice entry is \
            created. While you speak, the take is cut at pauses into pieces queued for \
            transcription: `queue run` uploads them, or --live does it as they come, shows \
            their text and prints the transcript when you stop.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var capture: CaptureOptions

    @Option(help: ArgumentHelp("Journal for the entry (default: the config file's, else \"Personal\", made on first use; others with `journal create`).", valueName: "name"))
    var journal: String?

    @Option(help: ArgumentHelp("Title of the entry.", valueName: "text"))
    var title: String?

    @Option(help: "How you feel.")
    var mood: Mood?

    @Option(help: "What it is about.")
    var theme: Theme?

    @Option(help: ArgumentHelp("Record the answer to this assignment instead of a journal entry.", valueName: "id"))
    var assignment: Int64?

    @Flag(help: "Print the saved recording as JSON.")
    var json = false

    @Flag(help: "Transcribe while recording, show the text as it comes and print the transcript at the end (needs the endpoint and key, see 'transcribe').")
    var live = false

    @Flag(help: "The same as --live.")
    var wait = false

    @OptionGroup(title: "Transcription (with --live)") var transcription: TranscriptionFlags

    /// Benchmarks only (scripts/bench-capture): capture, meter and write to this file, no store.
    @Option(help: ArgumentHelp(visibility: .hidden))
    var captureOnly: String?

    func run() async throws {
        if let captureOnly {
            try await capture.captureOnly(to: URL(fileURLWithPath: captureOnly))
            return
        }
        var flags = transcription.flags()
        flags.journal = journal
        var capture = capture
        let settings = try capture.input.resolve(flags, with: global)
        let owner: RecordingOwner
        if let assignment {
            guard title == nil, mood == nil, theme == nil else {
                throw CLIError.usage("--title, --mood and --theme describe a journal entry; an answer to --assignment has none")
            }
            owner = .assignment(assignment)
        } else {
            owner = .entry(journal: settings.journal.value, title: title, mood: mood, theme: theme)
        }
        let environment = ProcessInfo.processInfo.environment
        let live = self.live || wait
        // With --live, a missing key or bad endpoint is found before anyone speaks.
        if live { _ = try transcription.clientConfiguration(settings, environment: environment) }
        let store = try global.openStore()
        let uploader = live
            ? LiveTranscription(runner: try transcription.makeRunner(store: store, settings: settings, jobs: 2, environment: environment), store: store)
            : nil
        let outcome = try await capture.record(owner: owner, store: store, live: uploader, showTexts: !json)
        var interrupted = false
        if case .interrupted = outcome.stopReason { interrupted = true }
        guard let uploader, outcome.captureError == nil, !interrupted else {
            await uploader?.stop()
            return try RecordingReport.finish(outcome, json: json)
        }
        if !json {
            try RecordingReport.finish(outcome, json: false)
            // Out before the wait: whatever ends it (Ctrl-C, a kill), the take's lines are shown.
            fflush(nil) // every output stream: stdout is the one with lines waiting
        }
        let transcript: Transcript?
        do {
            // Ctrl-C while waiting stops the uploader (its jobs stay queued) instead of
            // killing the process with the saved take unreported.
            let interrupts = SignalWatch { _ in uploader.runner.stop() }
            defer { interrupts.cancel() }
            transcript = try await transcribe(outcome, with: uploader, store: store)
        } catch let error as CLIError where error.kind == .interrupted {
            if json { print(try RecordingReport.jsonText(outcome)) }
            throw error
        }
        guard let transcript else {
            // The server went away or does not answer: the take is saved and its pieces stay queued.
            RecordingReport.stderr("voicejournal: the server cannot be reached (or does not answer); the transcription is queued "
                + "(job \(outcome.jobId)): run `voicejournal queue run` when it is back")
            if json { print(try RecordingReport.jsonText(outcome)) }
            return
        }
        if json {
            print(try RecordingReport.jsonText(outcome, transcript: transcript))
        } else {
            print("\n" + TerminalText.escapedLines(transcript.text))
        }
    }

    /// Waits for the live uploader to finish this recording's job (the pieces not done yet,
    /// or the whole file for a take too short to be cut) and returns its transcript; nil when
    /// the server cannot be reached (the jobs stay queued). A job that failed for good exits
    /// 1 with its error; a refused key exits 3.
    func transcribe(_ outcome: RecordingOutcome, with uploader: LiveTranscription, store: JournalStore) async throws -> Transcript? {
        let jobId = outcome.job.id ?? 0
        if case .assembled = outcome.livePieces {
            await uploader.stop()
        } else {
            if uploader.jobId == nil { uploader.start(jobId: jobId) }
            uploader.nudge()
            let error = await uploader.wait(texts: !json, giveUp: { uploader.serverUnreachable }) { lines in
                if !lines.isEmpty { FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8)) }
            }
            if uploader.serverUnreachable { return nil }
            // A refused key or no quota is reported by its kind (exit 3).
            if let error = error as? TranscriptionError, error.kind == .unreachable { return nil }
            if error is CancellationError {
                throw CLIError.interrupted("interrupted; recording \(outcome.recordingId) is saved and its transcription stays queued "
                                           + "(job \(jobId)): run `voicejournal queue run` to finish it")
            }
            if let error { throw error }
        }
        if let transcript = try store.transcript(recordingId: outcome.recordingId) { return transcript }
        let job = try store.queue.jobs(ids: [jobId])[jobId]
        throw CLIError.failure("recording \(outcome.recordingId) was saved but not transcribed: "
            + (job?.lastError ?? "job \(jobId) is \(job?.state.rawValue ?? "gone")")
            + "; retry with: voicejournal queue retry \(jobId)")
    }
}

/// How to capture: shared by `record` and `answer`.
struct CaptureOptions: ParsableArguments {
    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("File format: wav or flac.", valueName: "format"))
    var format = "wav"

    @Option(help: ArgumentHelp("Stop after this many seconds (0 = no limit).", valueName: "sec"))
    var maxDuration: Double = 180

    @Option(help: ArgumentHelp("Stop once you have spoken and then this many seconds stayed quiet.", valueName: "sec"))
    var stopOnSilence: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Level (RMS, dBFS) below which --stop-on-silence counts audio as quiet.", valueName: "dbfs"))
    var silenceThreshold: Double = SilenceDetector.defaultThresholdDBFS

    @Flag(help: "Do not show the level meter.")
    var noMeter = false

    /// The longest `--max-duration`: a week.
    static let longestTake: Double = 7 * 86_400

    func validate() throws {
        guard AudioContainer(rawValue: format.lowercased()) != nil else {
            throw ValidationError("--format must be one of: \(AudioContainer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // Bounded so that no length or level overflows the frame counts made from it.
        guard maxDuration >= 0, maxDuration <= Self.longestTake else {
            throw ValidationError("--max-duration must be 0 (no limit) or up to \(Int(Self.longestTake)) seconds (a week)")
        }
        if let stopOnSilence, !(stopOnSilence > 0 && stopOnSilence <= 3600) {
            throw ValidationError("--stop-on-silence must be more than 0 and at most 3600 seconds")
        }
        guard silenceThreshold < 0, silenceThreshold >= -200 else {
            throw ValidationError("--silence-threshold is in dBFS and must be below 0 and at least -200")
        }
    }

    /// The capture path of `record` without the store, for benchmarks.
    func captureOnly(to url: URL) async throws {
        // A device ALSA does not know is a configuration error (exit 3): ErrorReport says so.
        let (session, writer) = try RecordingSession.captureOnly(request(owner: .assignment(0)), to: url,
                                                                 logger: Logger(label: "voicejournal.record"))
        let stopSignals = StopSignals { session.stop($0) }
        defer { stopSignals.restore() }
        await LiveMeter(showing: !noMeter, hint: "Capturing from \(input.device) to \(url.path)").run(session)
        let result = await session.result()
        try writer.close()
        print("Captured \(result.frames) frames to \(TerminalText.escaped(url.path))")
        if let error = result.error { throw error }
    }

    private func request(owner: RecordingOwner, idempotencyKey: String? = nil) -> RecordingRequest {
        RecordingRequest(
            device: input.device, format: input.format,
            container: AudioContainer(rawValue: format.lowercased()) ?? .wav,
            maxSeconds: maxDuration > 0 ? maxDuration : nil, stopOnSilenceSeconds: stopOnSilence,
            silenceThresholdDBFS: silenceThreshold, owner: owner, idempotencyKey: idempotencyKey)
    }

    /// Captures one take with the live meter, Enter and signal handling, and completes it.
    /// With `live`, its pieces are transcribed while it is recorded (their text shown under
    /// the meter with `showTexts`).
    func record(owner: RecordingOwner, store: JournalStore, live: LiveTranscription? = nil,
                showTexts: Bool = true, idempotencyKey: String? = nil) async throws -> RecordingOutcome {
        let session = try RecordingSession.start(request(owner: owner, idempotencyKey: idempotencyKey), store: store,
                                                 onPiece: { live?.pieceQueued($0) }, logger: Logger(label: "voicejournal.record"))
        if let live, let jobId = session.liveJobId { live.start(jobId: jobId) }
        let stopSignals = StopSignals { session.stop($0) }
        defer { stopSignals.restore() }
        await LiveMeter(showing: !noMeter, hint: "Recording from \(input.device) to \(session.url.path)")
            .run(session.capture, below: live.map { live in { live.newLines(texts: showTexts) } })
        return try await session.finish()
    }
}

/// Printing a finished recording, and the exit code its ending calls for.
enum RecordingReport {
    /// Prints the outcome (human or JSON) and throws the exit code: 130 after a signal, 1 if
    /// the device or disk failed mid-way (what was captured is saved), else returns (0).
    static func finish(_ outcome: RecordingOutcome, json: Bool) throws {
        let recording = outcome.recording
        if json {
            print(try jsonText(outcome))
        } else {
            let seconds = String(format: "%.1f", recording.durationSeconds)
            let levels = "peak \(String(format: "%.1f", recording.peakDBFS ?? 0)) dBFS, rms \(String(format: "%.1f", recording.rmsDBFS ?? 0)) dBFS"
            print("Saved recording \(outcome.recordingId): \(seconds) s, \(levels)")
            print("  file: \(TerminalText.escaped(recording.path))")
            if let entryId = recording.entryId { print("  entry: \(entryId)") }
            if let assignmentId = recording.assignmentId { print("  answers assignment \(assignmentId)") }
            print("  transcription queued (job \(outcome.jobId))")
        }
        if outcome.overruns > 0 {
            stderr("voicejournal: warning: \(outcome.overruns) overrun(s): the device dropped audio that was not read in time")
        }
        if let error = outcome.captureError {
            throw CLIError.failure("recording stopped early: \(error) (what was captured is saved)")
        }
        if case .interrupted = outcome.stopReason { throw ExitCode(CLIError.interrupted) }
    }

    static func jsonText(_ outcome: RecordingOutcome, transcript: Transcript? = nil) throws -> String {
        let recording = outcome.recording
        return try JSONText.encode(SavedRecordingJSON(
            recordingId: outcome.recordingId, jobId: outcome.jobId, path: recording.path,
            durationSeconds: recording.durationSeconds, sampleRate: recording.sampleRate,
            channels: recording.channels, format: recording.format, sizeBytes: recording.sizeBytes,
            sha256: recording.sha256 ?? "", peakDBFS: recording.peakDBFS ?? 0, rmsDBFS: recording.rmsDBFS ?? 0,
            stopReason: outcome.stopReason.map(name) ?? "attached", overruns: outcome.overruns,
            entryId: recording.entryId, assignmentId: recording.assignmentId, transcript: transcript?.text), pretty: false)
    }

    /// What `record --json` and `answer --json` print: one line; absent keys for no entry,
    /// no assignment, no transcript.
    private struct SavedRecordingJSON: Encodable {
        let recordingId: Int64, jobId: Int64, path: String
        let durationSeconds: Double, sampleRate: Int, channels: Int, format: String, sizeBytes: Int64
        let sha256: String, peakDBFS: Double, rmsDBFS: Double, stopReason: String, overruns: Int
        let entryId: Int64?, assignmentId: Int64?, transcript: String?
    }

    static func name(_ reason: StopReason) -> String {
        switch reason {
        case .requested: "enter"
        case .interrupted: "signal"
        case .maxDuration: "max-duration"
        case .silence: "silence"
        case .failed: "failed"
        }
    }

    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
