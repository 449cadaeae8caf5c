import Foundation
import VoiceJournalQueue

/// `transcribe --json` and `queue run --json`: a run's outcome as one document.
package struct RunJSON: Encodable, Sendable {
    package struct Failure: Encodable, Sendable {
        let path: String
        let message: String
    }

    /// Files the run was given (`transcribe`) or found queued (`queue run`).
    let files: Int
    let transcribed: Int
    let failed: Int
    /// Files transcribed by an earlier run (`transcribe` only).
    let alreadyDone: Int?
    /// Paths that were not audio or could not be read (`transcribe` only).
    let skipped: Int?
    let retried: Int
    let seconds: Double
    let failures: [Failure]
    let endpoints: [EndpointFigures]
    /// Files done with a transcript to doubt (no speech heard although the audio is not
    /// silent; every answer empty), each with what to do about it.
    let suspect: [Failure]
    /// Files transcribed without the translation that was asked for, each with why (a long
    /// file's chunk names the chunk).
    let untranslated: [Failure]
    /// Each file of the batch whose transcript is stored: its ids and text (`transcribe` only).
    let transcripts: [Transcript]?

    package struct Transcript: Encodable, Sendable {
        let path: String
        let recordingId: Int64
        let entryId: Int64?
        let text: String
    }

    /// A batch's outcome (`transcribe`).
    package init(_ outcome: BatchOutcome) {
        let wrapUp = outcome.wrapUp ?? BatchWrapUp()
        files = outcome.files
        transcribed = wrapUp.done
        failed = wrapUp.failed.count
        alreadyDone = outcome.alreadyDone
        skipped = outcome.skipped
        retried = outcome.run?.retried ?? 0
        seconds = outcome.seconds
        failures = wrapUp.failed.map { Failure(path: $0.url.path, message: $0.message) }
        endpoints = outcome.run?.endpoints ?? []
        suspect = (outcome.run?.suspects ?? []).map { Failure(path: $0.path, message: $0.message) }
        untranslated = (outcome.run?.untranslated ?? []).map { Failure(path: $0.path, message: $0.message) }
        transcripts = wrapUp.transcribed.map {
            Transcript(path: $0.url.path, recordingId: $0.recordingId, entryId: $0.entryId, text: $0.text ?? "")
        }
    }

    /// A drained queue's (`queue run`).
    package init(_ drained: QueueRunner.Drained) {
        files = drained.pending
        transcribed = drained.summary.transcribed
        failed = drained.summary.failed
        alreadyDone = nil
        skipped = nil
        retried = drained.summary.retried
        seconds = drained.seconds
        failures = drained.failures.map { Failure(path: $0.path, message: $0.job.lastError ?? "unknown error") }
        endpoints = drained.summary.endpoints
        suspect = drained.summary.suspects.map { Failure(path: $0.path, message: $0.message) }
        untranslated = drained.summary.untranslated.map { Failure(path: $0.path, message: $0.message) }
        transcripts = nil
    }
}
