import Foundation
import VoiceJournalStore

/// `answer`'s flow: the answer to an assignment, recorded or from a file, under a key that
/// makes sending it again safe (the same key gets the first answer back and stores nothing).
package struct AnswerSubmission: Sendable {
    package let assignmentId: Int64
    /// The key stored with the answer: the one given, else a fresh one.
    package let idempotencyKey: String
    /// Only a key the user gave can find an earlier answer: a fresh one is new.
    private let keyGiven: Bool

    /// An answer as submitted.
    package struct Saved: Sendable {
        package var outcome: RecordingOutcome
        /// Said first when the answer was saved before under the same key.
        package var notice: String?
    }

    package init(assignmentId: Int64, idempotencyKey: String?) {
        self.assignmentId = assignmentId
        self.idempotencyKey = idempotencyKey ?? IdempotencyKey.fresh()
        keyGiven = idempotencyKey != nil
    }

    /// The answer stored before under the key given (nil: none, or no key was given).
    package func earlier(in store: JournalStore) throws -> Saved? {
        guard keyGiven, let earlier = try store.earlierAnswer(assignmentId: assignmentId, idempotencyKey: idempotencyKey) else { return nil }
        return try savedBefore(earlier)
    }

    /// Attaches an existing audio file as the answer (see `AnswerAttachment`); `notice` is
    /// told, before a copy that may take a while, what is being copied.
    package func attach(file: URL, store: JournalStore, now: Date,
                       notice: @escaping @Sendable (String) -> Void) async throws -> Saved {
        let attachment = try AnswerAttachment(file: file, assignmentId: assignmentId, idempotencyKey: idempotencyKey, store: store)
        let copying = "copying \(attachment.source.path) (\(Self.size(attachment.sizeBytes))) into the journal"
        let completed = try await attachment.attach(now: now) { notice(copying) }
        if completed.isEarlierAnswer { return try savedBefore(completed) }
        return Saved(outcome: try RecordingOutcome(recording: completed.recording, job: completed.job))
    }

    private func savedBefore(_ earlier: CompletedRecording) throws -> Saved {
        Saved(outcome: try RecordingOutcome(recording: earlier.recording, job: earlier.job),
               notice: "this answer was saved before with the same idempotency key (\(idempotencyKey)): "
                   + "recording \(try earlier.recording.storedId()); nothing new was stored")
    }

    /// "318.2 MB", "840 KB", "12 bytes".
    package static func size(_ bytes: Int64) -> String {
        switch bytes {
        case 1_000_000...: String(format: "%.1f MB", Double(bytes) / 1_000_000)
        case 1000...: "\(bytes / 1000) KB"
        default: "\(bytes) bytes"
        }
    }
}
