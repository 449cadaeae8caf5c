import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

extension QueueRunner.Options {
    /// How a run works: the model and hints (`language` for every upload; `fallbackLanguage`
    /// for a recording whose person and journal name none), whether recordings are translated
    /// too, how uploads are planned, and two tunings from the environment that tests shorten:
    /// `VOICEJOURNAL_RETRY_BASE` (seconds of the first backoff) and `VOICEJOURNAL_LEASE_SECONDS`
    /// (how long a claim holds).
    package static func run(model: String, language: String?, fallbackLanguage: String?, prompt: String?, translate: Bool,
                           upload: UploadSettings, environment: [String: String]) -> QueueRunner.Options {
        var options = QueueRunner.Options(transcription: TranscriptionOptions(model: model, language: language, prompt: prompt))
        options.fallbackLanguage = fallbackLanguage
        options.translate = translate
        options.upload = upload
        if let base = environment["VOICEJOURNAL_RETRY_BASE"].flatMap(Double.init), base > 0 {
            options.retry.base = base
        }
        if let lease = environment["VOICEJOURNAL_LEASE_SECONDS"].flatMap(Double.init), lease > 0 {
            options.lease = min(lease, JobQueue.longestLease)
        }
        return options
    }
}
