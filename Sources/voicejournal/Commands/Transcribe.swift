import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalPages

/// `transcribe PATH...` — queue audio files and folders and transcribe them.
struct Transcribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe audio files and folders (recursively) through the queue.",
        discussion: CommandHelp.transcribe)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Audio files and folders.", valueName: "path")) var paths: [String]
    @Option(help: JobsHelp.uploads) var jobs: Int?
    @OptionGroup var transcription: TranscriptionFlags
    @Option(help: ArgumentHelp("Also make a voice entry per file in this journal (Personal is made on first use).", valueName: "name"),
            completion: .custom(LiveCompletions.journals)) var journal: String?
    @Option(help: ArgumentHelp("With --journal, the date of every entry (default: each file's own: when its audio was recorded, as a Broadcast WAV or an MP4/M4A says, else its modification time).", valueName: "when")) var date: PointInTime?
    @Option(help: ArgumentHelp("Write these next to each audio file: any of txt,srt,vtt,json.", valueName: "formats"),
            transform: { try SidecarFormat.parseList($0).get() }) var sidecar: [SidecarFormat]?
    @Flag(help: "Only queue the files; `voicejournal queue run` transcribes them later.") var noWait = false
    @Flag(help: "Transcribe files again that were transcribed before; each keeps its transcript until the new one is stored (and if the new attempt fails).")
    var again = false
    @Flag(name: .customLong("print"), help: "Print each transcript's text on stdout, the rest on stderr (the default for one file; several files get a line each saying where its text is).")
    var printText = false
    @Flag(help: "Print only the summary (and what failed): no text, no line per file.") var quiet = false
    @Flag(help: "At the end, one JSON document on stdout: counts, failures, what each endpoint did, and each file's ids and text.")
    var json = false

    func validate() throws {
        if let jobs { try validateJobs(jobs) }
        if json && noWait { throw ValidationError("--json reports a run; --no-wait only queues.") }
        if printText && quiet || (printText || quiet) && (json || noWait) {
            throw ValidationError("--print and --quiet choose what a run prints: one of them, without --json or --no-wait.")
        }
        if let journal, journal.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--journal needs a name.")
        }
        if date != nil, journal == nil { throw ValidationError("--date dates the entries --journal makes; give --journal too.") }
    }

    func run() async throws {
        let settings = try global.settings(transcription.flags(jobs: jobs))
        var request = BatchRequest(paths: paths, journal: journal, again: again, sidecars: sidecar ?? [], pool: nil)
        (request.keepTexts, request.date, request.reflect) = (json || printText, date?.date, settings.autoReflect.value)
        if !noWait { // the endpoints and keys are checked before anything is touched
            let environment = ProcessInfo.processInfo.environment
            request.pool = try settings.endpointPool(jobs: jobs, environment: environment, logger: Logger(label: "voicejournal.queue"))
            request.options = settings.runnerOptions(prompt: transcription.prompt, trim: !transcription.noTrim, environment: environment)
        }
        let display = BatchProgressDisplay(notice: printNotice)
        let transcribe = {
            try await BatchQueue.transcribe(request, openStore: global.openStore, logger: Logger(label: "voicejournal.batch"),
                                            events: display.handle)
        }
        let outcome = try await noWait ? transcribe() : untilInterrupted(transcribe)
        for notice in outcome.sidecarNotices { printNotice(notice) }
        // --json goes with a run (never --no-wait, which only queues): the lines say what was queued.
        let report = outcome.report(BatchListing(text: printText, quiet: quiet, files: outcome.files))
        if json { try printJSON(RunJSON(outcome)) } else { report.out.forEach { print($0) }; report.notices.forEach(printNotice) }
        if !noWait, request.reflect, let made = outcome.wrapUp?.transcribed.compactMap(\.entryId) { // the batch's entries, reflected on
            for line in try await untilInterrupted({ try await AutoReflection.drain(settings: settings, store: global.openStore(), environment: ProcessInfo.processInfo.environment, entries: Set(made), notice: printNotice) }) { printNotice(line) }
        }
        if outcome.failedWork { throw ExitCode(.failure) }
    }
}
