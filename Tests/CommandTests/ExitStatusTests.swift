import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import Testing
@testable import voicejournal
import VoiceJournalQueue
import VoiceJournalRecording
import VoiceJournalSettings
import VoiceJournalTranscription

/// The exit-code contract over every typed error a command can meet, one row per type and
/// kind, in-process: `ErrorReport.of` decides by type and kind, and the line the user reads
/// is the error's own sentence, word for word. The server's `ServeError` has its rows in
/// `ServeErrorStatusTests` (the server is built on this module).
@Suite struct ExitStatusTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let error: any Error & Sendable
        /// The documented exit status: 1 some work failed, 2 usage, 3 configuration, 130 interrupted.
        let status: Int32
        var testDescription: String { "\(name) → \(status)" }
    }

    static func transcription(_ kind: TranscriptionError.Kind, _ status: Int32) -> Row {
        Row(name: "transcription: \(kind)", error: TranscriptionError(kind: kind, description: "the server said no (\(kind))"), status: status)
    }

    static func config(_ kind: ConfigError.Kind) -> Row {
        Row(name: "config file: \(kind)", error: ConfigError(kind: kind, path: "/home/me/.config/voicejournal/config.toml", line: 4,
                                                            message: "something about \(kind)"), status: 3)
    }

    static func alsa(_ kind: ALSAError.Kind, _ function: String, _ code: Int32, _ status: Int32) -> Row {
        Row(name: "ALSA: \(kind)", error: ALSAError(kind, function: function, code: code, device: "hw:1"), status: status)
    }

    static func recording(_ kind: RecordingError.Kind) -> Row {
        Row(name: "recording: \(kind)", error: RecordingError(kind, "answer.wav: \(kind)"), status: 1)
    }

    static let rows: [Row] = [
        Row(name: "command: usage", error: CLIError.usage("--title describes a journal entry"), status: 2),
        Row(name: "command: configuration", error: CLIError.configuration("cannot list capture devices"), status: 3),
        Row(name: "command: failure", error: CLIError.failure("cannot write /tmp/out/entries.json"), status: 1),
        Row(name: "command: interrupted", error: CLIError.interrupted("interrupted; unfinished files stay queued"), status: 130),

        Row(name: "store: notFound", error: StoreError.notFound("no entry #9"), status: 2),
        Row(name: "store: invalidInput", error: StoreError.invalidInput("an empty name"), status: 2),
        Row(name: "store: conflict", error: StoreError.conflict("already assigned"), status: 2),
        Row(name: "store: alreadyStored", error: StoreError(.alreadyStored, "same audio"), status: 1),
        Row(name: "store: storageFull", error: StoreError(.storageFull, "disk full"), status: 1),
        Row(name: "store: readOnly", error: StoreError(.readOnly, "read-only"), status: 1),
        Row(name: "store: storageFailure", error: StoreError(.storageFailure, "I/O"), status: 1),
        Row(name: "store: inconsistent", error: StoreError.inconsistent("no id"), status: 1),
        Row(name: "store: tookTooLong", error: StoreError(.tookTooLong, "the search took longer than 10 s"), status: 1),

        transcription(.unauthorized, 3), transcription(.quotaExceeded, 3), transcription(.endpointNotFound, 3),
        transcription(.invalidConfiguration, 3), transcription(.unreachable, 3),
        transcription(.badRequest, 1), transcription(.tooLarge, 1), transcription(.unreadableFile, 1),
        transcription(.rateLimited, 1), transcription(.serverError, 1), transcription(.timeout, 1),
        transcription(.connection, 1), transcription(.noAnswer, 1), transcription(.malformedResponse, 1),
        transcription(.emptyAnswer, 1),
        transcription(.cancelled, 130),

        Row(name: "settings: no endpoint of the pool can be used",
            error: EndpointPool.noUsableEndpoint(TranscriptionError(kind: .invalidConfiguration, description: "no API key: set WORK_KEY"), tables: 2),
            status: 3),

        config(.syntax), config(.unknownKey), config(.wrongType), config(.invalidValue), config(.keyInFile), config(.unreadable),

        alsa(.listDevices, "snd_device_name_hint", -ENOMEM, 3),
        alsa(.loadConfiguration, "snd_config_load", -EINVAL, 3),
        alsa(.open, "snd_pcm_open", -ENOENT, 3),
        alsa(.open, "snd_pcm_open", -EBUSY, 3),
        alsa(.negotiate, "snd_pcm_hw_params_set_rate_near", -EINVAL, 3),
        alsa(.prepare, "snd_pcm_prepare", -EIO, 3),
        alsa(.read, "snd_pcm_readi", -EIO, 1),

        Row(name: "sound file: failed", error: SoundFileError(operation: "write", path: "/tmp/a.wav", reason: "disk full"), status: 1),
        Row(name: "sound file: notAudio", error: SoundFileError(operation: "open", path: "/tmp/a.wav", reason: "not audio", kind: .notAudio), status: 1),

        Row(name: "audio file: missing", error: AudioFileProblem(.missing, path: "gone.wav", reason: "no such file"), status: 1),
        Row(name: "audio file: notRegularFile", error: AudioFileProblem(.notRegularFile, path: "/dev/fd/63", reason: "a pipe"), status: 1),
        Row(name: "audio file: brokenLink", error: AudioFileProblem(.brokenLink, path: "link.wav", reason: "broken link"), status: 1),
        Row(name: "audio file: unreadable", error: AudioFileProblem(.unreadable, path: "locked.wav", reason: "permission denied"), status: 1),
        Row(name: "audio file: truncated", error: AudioFileProblem(.truncated, path: "cut.wav", reason: "truncated"), status: 1),
        Row(name: "audio file: tooLong", error: AudioFileProblem(.tooLong, path: "long.wav", reason: "hours"), status: 1),
        Row(name: "audio file: implausibleLength", error: AudioFileProblem(.implausibleLength, path: "liar.wav", reason: "a length its bytes cannot hold"), status: 1),

        recording(.nothingRecorded), recording(.completedElsewhere), recording(.pieceOutsideBuffer), recording(.notAudio),
        recording(.damaged), recording(.noAudio), recording(.tooLong),

        Row(name: "resampler: unsupportedRatio", error: ResamplerError(.unsupportedRatio, function: "src_is_valid_ratio", code: 6), status: 1),
        Row(name: "resampler: setup", error: ResamplerError(.setup, function: "src_new", code: 1), status: 1),
        Row(name: "resampler: conversion", error: ResamplerError(.conversion, function: "src_process", code: 2), status: 1),

        Row(name: "digest: unavailable", error: DigestError(.unavailable, step: "EVP_MD_CTX_new"), status: 1),
        Row(name: "digest: hashing", error: DigestError(.hashing, step: "EVP_DigestUpdate"), status: 1),

        Row(name: "cancellation", error: CancellationError(), status: 130),
    ]

    @Test(arguments: rows)
    func eachTypedErrorMapsByItsKindToItsDocumentedStatusInItsOwnWords(_ row: Row) throws {
        let report = try #require(ErrorReport.typed(row.error), "a typed error ErrorReport does not know")
        #expect(report.status.rawValue == row.status)
        #expect(ErrorReport.of(row.error) == report)
        let words = row.error is CancellationError ? "interrupted" : String(describing: row.error)
        #expect(report.message == words)
    }

    @Test func theStatusesAreTheDocumentedNumbers() {
        #expect(ErrorReport.Status.success.rawValue == 0)
        #expect(ErrorReport.Status.failure.rawValue == 1)
        #expect(ErrorReport.Status.usage.rawValue == 2)
        #expect(ErrorReport.Status.configuration.rawValue == 3)
        #expect(ErrorReport.Status.interrupted.rawValue == 130)
    }

    /// The kind decides, never the words: a sentence that reads like another kind's does not move it.
    @Test func theSentenceNeverDecidesTheStatus() {
        let readLike = ALSAError(.open, function: "snd_pcm_readi", code: -EIO, device: "hw:1")
        #expect(ErrorReport.of(readLike).status == .configuration)
        let interruptedWords = CLIError.failure("interrupted")
        #expect(ErrorReport.of(interruptedWords).status == .failure)
        let refusedWords = TranscriptionError(kind: .badRequest, status: 400, description: "the server refused the API key (HTTP 401)")
        #expect(ErrorReport.of(refusedWords).status == .failure)
    }

    /// Errors of no typed kind are still reported: the store's reading of them, else failed work.
    @Test func untypedErrorsAreLeftToTheStoreOrFailedWork() {
        #expect(ErrorReport.typed(POSIXError(.ENOSPC)) == nil)
        #expect(ErrorReport.of(POSIXError(.ENOSPC)).status == .failure)
    }
}
