import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalSettings
import VoiceJournalSystem

/// The flags `transcribe` and `queue run` share: which model and endpoint, and the hints.
/// Each one not given falls back to the environment, the config file, then the default
/// (`Settings` resolves them).
struct TranscriptionFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Model (default: $VOICEJOURNAL_MODEL, else the config file, else whisper-1).", valueName: "name"))
    var model: String?
    @Option(help: ArgumentHelp("Spoken language, a code Whisper knows, e.g. en, de, pl, for every upload of the run (default: the person's, else the journal's, else the config file's, else detected).", valueName: "code"))
    var language: String?
    @Option(help: ArgumentHelp("Text to prime the model with (names, spellings, style).", valueName: "text"))
    var prompt: String?
    @Option(help: ArgumentHelp("API base URL: this one server for the run (default: $OPENAI_BASE_URL, else the config file's endpoints as a pool, else https://api.openai.com/v1).", valueName: "url"))
    var baseURL: String?
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest audio upload in bytes; bigger files are encoded or split (default: about 24 MB).", valueName: "bytes"))
    var maxRequestBytes: Int64?
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Longest audio in one upload, in seconds; longer files are split at pauses (default: 600).", valueName: "seconds"))
    var maxChunkSeconds: Double?
    @Option(help: ArgumentHelp("Codec for audio that is encoded or split before upload: flac (lossless, the default), mp3 or opus (smaller).",
                               valueName: "codec"))
    var uploadCodec: UploadCodec?
    @Flag(help: "Translate every recording to English as well (OpenAI: whisper-1; a local server: the base model, not tiny.en): the translation is stored beside the transcript and both are searchable. The original transcript is always kept; a server or model that cannot translate gets one warning and the transcript is stored without. Skipped for English speech. Default: the config file's translate, else off; a person's or journal's own setting asks too.")
    var translate = false
    @Flag(help: "Send the audio untouched, every pause and noise, and keep the answer as the server gave it (by default only the speech is sent, and the answer is checked against it).")
    var noTrim = false

    func validate() throws {
        let bytes = UploadSettings.maxRequestBytesRange, seconds = UploadSettings.maxChunkSecondsRange
        if let maxRequestBytes, !bytes.contains(maxRequestBytes) {
            throw ValidationError("--max-request-bytes must be at least \(bytes.lowerBound) and at most \(bytes.upperBound) (4 GiB), not \(maxRequestBytes).")
        }
        if let maxChunkSeconds, !(maxChunkSeconds.isFinite && seconds.contains(maxChunkSeconds)) {
            throw ValidationError("--max-chunk-seconds must be at least \(Int(seconds.lowerBound)) and at most \(Int(seconds.upperBound)).")
        }
        if let language, let problem = SpokenLanguage.problem(with: language) { throw ValidationError(problem) }
        if let model, model.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--model must name a model, e.g. whisper-1.")
        }
    }

    /// These options as settings flags, with the command's `--jobs` if it has one.
    func flags(jobs: Int? = nil) -> Settings.Flags {
        var flags = Settings.Flags()
        (flags.model, flags.language, flags.baseURL, flags.jobs) = (model, language, baseURL, jobs)
        (flags.maxRequestBytes, flags.maxChunkSeconds, flags.uploadCodec) = (maxRequestBytes, maxChunkSeconds, uploadCodec?.rawValue)
        flags.translate = translate ? true : nil
        return flags
    }

    /// A runner over `store` with these flags (see `Settings.queueRunner`): on `pool`, else on
    /// the settings' servers for `jobs`, warning about each endpoint left out.
    func makeRunner(store: JournalStore, settings: Settings, jobs: Int? = nil, pool: EndpointPool? = nil) throws -> QueueRunner {
        try settings.queueRunner(store.queue, jobs: jobs, pool: pool, prompt: prompt, trim: !noTrim, environment: ProcessInfo.processInfo.environment,
                                 logger: Logger(label: "voicejournal.queue")) { printNotice("warning: " + $0) }
    }
}

/// Runs a queue run so that Ctrl-C or SIGTERM cancels it (its jobs go back to the queue) and
/// exits 130; whatever else stopped it is thrown as it is, for `ErrorReport` to map.
func untilInterrupted<Result: Sendable>(_ work: sending @escaping () async throws -> Result) async throws -> Result {
    do {
        return try await SignalWatch.cancelling(work)
    } catch is CancellationError {
        throw CLIError.interrupted("interrupted; unfinished files stay queued: run `voicejournal queue run` (or the same command again) to finish them")
    }
}

extension UploadCodec: ExpressibleByArgument {}
