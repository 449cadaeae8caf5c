import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

/// An English translation to store beside a transcript: its text and segments (on the clock
/// of the stretch uploaded, like the transcript's), or why there is none although one was asked.
struct TranslationOutcome: Equatable {
    var text: String?
    var segments: [Transcript.Segment] = []
    /// Why a translation that was asked for is missing; nil when there is one, or none was asked.
    var note: String?

    /// None asked, or none needed (the speech is English already, or there is none).
    static let none = TranslationOutcome()
}

extension Worker {
    /// The English translation of an upload that was just transcribed: the same file (the
    /// speech-only audio the transcription used) sent to the translations endpoint, its times
    /// mapped back through the same `map`, its repetition loops cut. Asked only when the run
    /// or the recording's person or journal wants one, and not when the transcript is empty
    /// or English (`transcriptLanguage`, else the language the upload was sent with): the
    /// original is English already.
    ///
    /// It never fails the job nor delays it: a failure is one attempt, never retried or
    /// waited for, and ends as a `note` stored with the original transcript and one line for
    /// the user (`Event.untranslated`). A 4xx answer to audio the server had just transcribed
    /// says the server (or its model) does not translate: 404 for a server without the
    /// endpoint, 400 from an English-only model. It is remembered for the endpoint, and the
    /// rest of the run asks it for no translation (its files get the same note, without a line).
    /// `place` names the chunk in messages ("chunk 2: ").
    func translation(of request: TranscriptionRequest, transcript: TranscriptionResult, map: TimeMap?, recordingId: Int64,
                     jobId: Int64, path: String, place: String = "", on connection: WhisperConnection) throws -> TranslationOutcome {
        // The store is asked last: most uploads are settled by their answer alone.
        guard !transcript.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
              (transcript.language ?? request.options.language) != "en",
              try wantsTranslation(of: recordingId) else { return .none }
        if let refusal = endpoint.refusedTranslation {
            untranslated(jobId: jobId, path: path, message: place + refusal, announced: false)
            return TranslationOutcome(note: refusal)
        }
        let translated: TranscriptionResult
        do {
            translated = try connection.transcribe(request.translation())
        } catch {
            return failedTranslation(error, jobId: jobId, path: path, place: place)
        }
        let mapped = map.map { translated.mapped(through: $0) } ?? translated
        let reviewed = TranscriptReview().withoutLoops(mapped)
        if !reviewed.leftOut.isEmpty {
            runner.logger.debug("cut repetition loops from a translation", metadata: [
                "job": "\(jobId)", "pieces": "\(reviewed.leftOut.count)"])
        }
        let text = reviewed.result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            let note = reviewed.leftOut.isEmpty ? "the server answered with an empty translation"
                : "the translation was only a repetition loop"
            untranslated(jobId: jobId, path: path, message: place + note)
            return TranslationOutcome(note: note)
        }
        return TranslationOutcome(text: text, segments: reviewed.result.segments.map(Transcript.Segment.init))
    }

    /// What a failed translation leaves: the note stored, and the line the user reads.
    private func failedTranslation(_ error: TranscriptionError, jobId: Int64, path: String, place: String) -> TranslationOutcome {
        if error.kind == .cancelled {
            return TranslationOutcome(note: "the run stopped before the translation came back")
        }
        if let status = error.status, (400..<500).contains(status), ![408, 409, 429].contains(status) {
            let said = error.serverMessage.map(Self.noteText).map { $0.isEmpty ? "" : ": \($0)" } ?? ""
            let note = status == 404 ? "the server has no translation endpoint (HTTP 404\(said))"
                : "the server cannot translate (HTTP \(status)\(said))"
            // Only the first file told: the others get the note without a line each.
            if endpoint.refusesTranslation(because: note) {
                let server = run.servers.count > 1 ? endpoint.name : "the server"
                untranslated(jobId: jobId, path: path, message: place + note
                    + "; no more translations are asked of \(server) in this run")
            } else {
                untranslated(jobId: jobId, path: path, message: place + note, announced: false)
            }
            return TranslationOutcome(note: note)
        }
        let note = "the translation failed: " + Self.noteText(error.description)
        untranslated(jobId: jobId, path: path, message: place + note)
        return TranslationOutcome(note: note)
    }

    /// A file (or chunk) stored without its translation: in the run's summary (`--json`),
    /// and told to the user when `announced`.
    private func untranslated(jobId: Int64, path: String, message: String, announced: Bool = true) {
        run.summary.withLock { $0.untranslated.append(.init(jobId: jobId, path: path, message: message)) }
        if announced { run.onEvent(.untranslated(jobId: jobId, path: path, message: message)) }
    }

    /// A server's words as a note: one line (control characters and line breaks become
    /// spaces), at most `longestNote` characters.
    static func noteText(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) }
        let line = String(scalars).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return line.count > longestNote ? String(line.prefix(longestNote - 1)) + "…" : line
    }

    /// The longest piece of a server's message kept in a note.
    static let longestNote = 300
}
