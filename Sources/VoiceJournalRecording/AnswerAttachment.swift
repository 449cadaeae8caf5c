import VoiceJournalAudio
import Foundation
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalSystem

/// An existing audio file given as the answer to an assignment (`answer --file`): probed,
/// hashed, copied (0600) into `<home>/audio/YYYY/MM/` and recorded as the answer in one
/// transaction. If anything fails the copy is removed, so the journal never holds half an answer.
package struct AnswerAttachment: Sendable {
    package let source: URL
    package let assignmentId: Int64
    /// The file's size: what will be read and copied.
    package let sizeBytes: Int64
    /// Stored with the answer: the same key again gets this answer back, never a second one.
    package let idempotencyKey: String?
    /// The longest answer taken, in seconds (an upload through `serve`); nil: any length.
    package let maxDurationSeconds: Double?
    private let store: JournalStore

    /// Checks that the assignment is open and the file is a readable regular file, without reading it yet.
    package init(file source: URL, assignmentId: Int64, idempotencyKey: String? = nil, maxDurationSeconds: Double? = nil,
                store: JournalStore) throws {
        try store.checkOwner(.assignment(assignmentId))
        // A pipe, device or folder is refused here, before anything opens it.
        let status = try RegularFile.check(source)
        self.source = source
        self.assignmentId = assignmentId
        self.sizeBytes = status.sizeBytes
        self.idempotencyKey = idempotencyKey
        self.maxDurationSeconds = maxDurationSeconds
        self.store = store
    }

    /// Probes and hashes the file, copies it into the journal and records it as the answer,
    /// with its transcription queued. `beforeCopying` is called once the file is known to be
    /// new audio, just before the copy. Blocking file and store work runs on a thread of its own.
    package func attach(now: Date = Date(), beforeCopying: @escaping @Sendable () -> Void = {}) async throws -> CompletedRecording {
        let source = self.source
        let summary: WaveformSummary
        // The length limit is checked on the declared length before decoding, and again as
        // the decode runs: a small file declaring hours costs no more than its header.
        let limit = DecodeLimit(maxSeconds: maxDurationSeconds)
        do {
            summary = try await onThread {
                // A cut-off file is refused rather than kept as if whole.
                _ = try AudioIntegrity.probe(source, limit: limit)
                return try WaveformSummary.make(of: source, columns: 1, limit: limit)
            }
        } catch let error as SoundFileError {
            throw RecordingError(.notAudio, "\(source.path) is not audio voicejournal can read: "
                + error.reason.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch let problem as AudioFileProblem where problem.kind == .tooLong {
            throw RecordingError(.tooLong, String(format: "%@ is longer than the longest answer taken (%.0f s): %@",
                                                  source.path, maxDurationSeconds ?? 0, problem.reason))
        } catch let problem as AudioFileProblem {
            // Damaged (truncated, a length its bytes cannot hold): trying again never helps.
            throw RecordingError(.damaged, problem.description)
        }
        guard summary.info.frames > 0 else { throw RecordingError(.noAudio, "\(source.path) holds no audio") }
        if let limit = maxDurationSeconds, summary.info.durationSeconds > limit {
            throw RecordingError(.tooLong, String(format: "%@ is %.0f s long; the longest answer taken is %.0f s",
                                                  source.path, summary.info.durationSeconds, limit))
        }
        let home = store.home, store = self.store, assignmentId = self.assignmentId, key = idempotencyKey
        // The store's checks block too (SQLite): they run on the same thread as the hash.
        let (sha256, earlier) = try await onThread { () throws -> (String, CompletedRecording?) in
            let sha256 = try ContentDigest.sha256(fileAt: source)
            // The same key again is the first answer, whatever the audio: checked before the
            // duplicate-audio rule, which would call the first answer's audio "sent before".
            if let earlier = try store.earlierAnswer(assignmentId: assignmentId, idempotencyKey: key) { return (sha256, earlier) }
            // Known audio is refused before the copy, not after it.
            if let duplicate = try store.duplicateAudio(sha256: sha256) { throw duplicate }
            return (sha256, nil)
        }
        if let earlier { return earlier }
        let facts = RecordingFacts(sha256: sha256, durationSeconds: summary.info.durationSeconds, sizeBytes: sizeBytes,
                                   peakDBFS: summary.levels.peakDBFS, rmsDBFS: summary.levels.rmsDBFS)
        beforeCopying()
        return try await onThread {
            try Self.copyAndRecord(source, summary: summary, facts: facts, assignmentId: assignmentId,
                                   idempotencyKey: key, home: home, store: store, now: now)
        }
    }

    private static func copyAndRecord(_ source: URL, summary: WaveformSummary, facts: RecordingFacts, assignmentId: Int64,
                                      idempotencyKey: String?, home: DataHome, store: JournalStore,
                                      now: Date) throws -> CompletedRecording {
        let folder = home.audioFolder(for: now)
        try home.createPrivateFolder(folder)
        let fileExtension = source.pathExtension.isEmpty ? summary.info.format : source.pathExtension.lowercased()
        var copied: URL?
        do {
            return try store.addAnswer(assignmentId: assignmentId, format: summary.info.format,
                                       sampleRate: summary.info.sampleRate, channels: summary.info.channels,
                                       facts: facts, idempotencyKey: idempotencyKey, now: now) { id in
                let destination = folder.appendingPathComponent("\(RecordingSession.fileStamp(now))-\(id).\(fileExtension)")
                do {
                    try FileManager.default.copyItem(at: source, to: destination)
                } catch let error as CocoaError {
                    // A copy that fails half-way (a full disk) leaves a partial file: it goes too,
                    // or the next attempt, given the rolled-back id again, would find it in the way.
                    if error.code != .fileWriteFileExists { copied = destination }
                    // Foundation's error names the source; the file that could not be written is this one.
                    var info = error.userInfo
                    info[NSFilePathErrorKey] = destination.path
                    info[NSURLErrorKey] = destination
                    throw CocoaError(error.code, userInfo: info)
                }
                copied = destination
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination.path)
                return destination.path
            }
        } catch {
            // The transaction rolled back; the copy (whole or partial) must go with it.
            if let copied { try? FileManager.default.removeItem(at: copied) }
            throw StoreError.classify(error, home: home) ?? error
        }
    }
}
