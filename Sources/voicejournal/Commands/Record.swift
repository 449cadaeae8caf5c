import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalPages
import VoiceJournalTerminal

/// `record` — capture from the microphone into a new voice entry (or an assignment's answer).
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record from the microphone with a live level meter",
        discussion: CommandHelp.record)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var capture: CaptureOptions
    @Option(help: ArgumentHelp("Journal for the entry (default: the config file's, else \"Personal\", made on first use; others with `journal create`).", valueName: "name"),
            completion: .custom(LiveCompletions.journals)) var journal: String?
    @Option(help: ArgumentHelp("Title of the entry.", valueName: "text")) var title: String?
    @Option(help: "How you feel.") var mood: Mood?
    @Option(help: "What it is about.") var theme: Theme?
    @Option(help: ArgumentHelp("The entry's date, when it is about another day (default: now).", valueName: "when")) var date: PointInTime?
    @Option(help: ArgumentHelp("Record the answer to this assignment instead of a journal entry.", valueName: "id"))
    var assignment: Int64?
    @Flag(help: "Print the saved recording as JSON.") var json = false
    @Flag(help: "No line of encouragement once the entry is saved (also: encourage = false under [defaults]).") var quiet = false
    @Flag(help: "Transcribe while recording, show the text as it comes and print the transcript at the end (needs the endpoint and key, see 'transcribe').")
    var live = false
    @Flag(help: "The same as --live.") var wait = false
    @Flag(help: "Reflect on the entry once its transcript is in (a job in the queue; with --live, shown before the command ends).") var reflect = false
    @OptionGroup(title: "Transcription (with --live)") var transcription: TranscriptionFlags
    /// Benchmarks only (scripts/bench-capture): capture, meter and write to this file, no store.
    @Option(help: ArgumentHelp(visibility: .hidden)) var captureOnly: String?

    func run() async throws {
        if let captureOnly { return try await capture.captureOnly(to: URL(fileURLWithPath: captureOnly)) }
        var flags = transcription.flags()
        (flags.journal, flags.reflect) = (journal, reflect)
        var capture = capture
        let settings = try capture.input.resolve(flags, with: global)
        if assignment != nil, title != nil || mood != nil || theme != nil || date != nil {
            throw CLIError.usage("--title, --mood, --theme and --date describe a journal entry; an answer to --assignment has none")
        }
        let owner = assignment.map(RecordingOwner.assignment)
            ?? .entry(journal: settings.journal.value, title: title, mood: mood, theme: theme, date: date?.date)
        let environment = ProcessInfo.processInfo.environment, live = self.live || wait
        // With --live, a missing key or bad endpoint is found before anyone speaks.
        if live { _ = try settings.clientConfiguration(environment: environment) }
        let store = try global.openStore()
        let runner = live ? try transcription.makeRunner(store: store, settings: settings, jobs: 2) : nil
        // Shown before the wait for the transcript: whatever ends it (Ctrl-C, a kill), the take's lines are out.
        let take = try await capture.record(owner: owner, store: store, live: runner, showTexts: !json) { outcome in
            if !json { try? RecordingReport.show(outcome, json: false, live: true) }
        }
        try AutoReflection.queue(entryId: take.outcome.recording.entryId, settings: settings, store: store)
        try RecordingReport.finish(take, json: json)
        if !json, !quiet, settings.encourage.value, let id = take.outcome.recording.entryId { printEncouragement(Encouragement.line(entryId: id, mood: mood)) }
        if live { for line in await AutoReflection.afterTake(entryId: take.outcome.recording.entryId, settings: settings, store: store, environment: environment) where !json && !quiet { printEncouragement(line) } }
    }
}

/// How to capture: shared by `record` and `answer`.
struct CaptureOptions: ParsableArguments {
    @OptionGroup var input: InputOptions
    @Option(help: ArgumentHelp("File format: wav or flac.", valueName: "format")) var format = "wav"
    @Option(help: ArgumentHelp("Stop after this many seconds (0 = no limit).", valueName: "sec")) var maxDuration: Double = 180
    @Option(help: ArgumentHelp("Stop once you have spoken and then this many seconds stayed quiet.", valueName: "sec"))
    var stopOnSilence: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Level (RMS, dBFS) below which --stop-on-silence counts audio as quiet.", valueName: "dbfs"))
    var silenceThreshold: Double = SilenceDetector.defaultThresholdDBFS
    @Flag(help: "Do not show the level meter.") var noMeter = false

    func validate() throws {
        if let problem = limits.problem { throw ValidationError(problem) }
    }

    /// The file and limits of a take (see `TakeLimits`).
    private var limits: TakeLimits {
        TakeLimits(format: format, maxDuration: maxDuration, stopOnSilence: stopOnSilence, silenceThreshold: silenceThreshold)
    }

    /// The capture path of `record` without the store, for benchmarks.
    func captureOnly(to url: URL) async throws {
        let result = try await withMeter(showing: !noMeter, hint: { _ in "Capturing from \(input.device) to \(url.path)" }) { stop, progress in
            try await Recorder.captureOnly(request(owner: .assignment(0)), to: url, stop: stop, logger: Logger(label: "voicejournal.record"),
                                           progress: progress)
        }
        print("Captured \(result.frames) frames to \(TerminalText.escaped(url.path))")
        if let error = result.error { throw error }
    }

    private func request(owner: RecordingOwner, idempotencyKey: String? = nil) -> RecordingRequest {
        limits.request(device: input.device, format: input.format, owner: owner, idempotencyKey: idempotencyKey)
    }

    /// One take with the meter drawn and Enter and signals heard (see `Recorder.record`).
    func record(owner: RecordingOwner, store: JournalStore, live: QueueRunner? = nil, showTexts: Bool = true,
                idempotencyKey: String? = nil, saved: @escaping (RecordingOutcome) -> Void = { _ in }) async throws -> TakeResult {
        try await withMeter(showing: !noMeter, hint: { "Recording from \(input.device) to \($0?.path ?? "")" }, saved: saved) { stop, progress in
            try await Recorder.record(request(owner: owner, idempotencyKey: idempotencyKey), store: store, live: live,
                                      showTexts: showTexts, stop: stop, logger: Logger(label: "voicejournal.record"), progress: progress)
        }
    }
}

/// Printing a finished recording (what `TakeEnding` says of it comes from the take), and the
/// exit code its ending calls for.
enum RecordingReport {
    /// Prints the outcome (human or JSON), and the warning for dropped audio; returns how the take ended.
    @discardableResult
    static func show(_ outcome: RecordingOutcome, json: Bool, live: Bool = false) throws -> TakeEnding {
        let ending = try outcome.report(json: json, live: live, say: { print($0) }, warn: printNotice)
        fflush(nil) // out at once, before any wait: stdout is the stream with lines waiting
        return ending
    }

    /// Prints the outcome; exits 130 after a signal, 1 if the device or disk failed mid-way.
    static func finish(_ outcome: RecordingOutcome, json: Bool) throws { try finish(TakeResult(outcome: outcome), json: json) }

    /// After a live take (shown already unless `json`): its transcript, or why there is none.
    static func finish(_ take: TakeResult, json: Bool) throws {
        let ending = take.live == nil ? try show(take.outcome, json: json) : try take.report(json: json, say: { print($0) }, warn: printNotice)
        switch ending {
        case .done: break
        case .failed(let message): throw CLIError.failure(message)
        case .interrupted(let message?): throw CLIError.interrupted(message)
        case .interrupted(nil): throw ExitCode(.interrupted)
        }
    }
}
