import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalStore

/// A scanned file and where it now stands in the queue.
public struct QueuedFile: Sendable, Equatable {
    public var url: URL
    public var outcome: BatchFileOutcome
    /// The path was in the journal, transcribed, with other audio: its recording now holds
    /// this audio and is transcribed again; the old transcript was dropped.
    public var replacedTranscript = false
}

/// Turns scanned audio into recordings and queued jobs: hashes each file (streaming), then
/// stores them in batches, each batch one transaction. Re-running on the same files finds
/// what is there, so a batch killed at any point resumes without doubling anything.
///
/// A file still being written (its size or modification time changes while it is looked
/// at) is skipped, to be transcribed whole by a later run, never as a partial take. A path
/// already in the journal whose file now holds other audio is the same recording in a new
/// version: its recording takes the new audio and is transcribed again.
public enum BatchQueue {
    /// Files per transaction: few enough that a kill loses little hashing, many enough
    /// that a folder of thousands is not thousands of disk syncs.
    public static let filesPerTransaction = 200

    /// A file modified less than this long ago is looked at again once this long has passed
    /// since: a writer still at work (a recorder, a download, a copy) changes it meanwhile.
    /// Files are queued in order, so a folder of fresh files waits about this long once.
    public static let settleSeconds = 0.5

    /// Probes, hashes and queues walked files (`BatchScanner.walk`). Files that are not audio
    /// and files that cannot be hashed are returned as skipped. `prepared` holds the first
    /// files already probed and hashed (`prepare`), in order. `onQueued` is told after each
    /// transaction, with the files it queued and those skipped since the last (a run can
    /// start on them at once); `firstTransaction` files go in the first one, and each later
    /// transaction doubles, up to `filesPerTransaction`. `shouldStop` is asked before each
    /// file: what is queued by then stays queued. With a journal, each entry is dated `date`,
    /// else when its audio was recorded (`recordedAt`); with `reflect`, each entry made gets a
    /// reflection job.
    public static func enqueue(_ files: [WalkedFile], prepared: [PreparedFile] = [], queue: JobQueue, journalName: String?,
                               date: Date? = nil, priority: Int = Job.batchPriority, reflect: Bool = false, logger: Logger,
                               firstTransaction: Int = filesPerTransaction,
                               shouldStop: () -> Bool = { false },
                               onQueued: ([QueuedFile], [SkippedFile]) -> Void = { _, _ in }) throws
        -> (queued: [QueuedFile], skipped: [SkippedFile]) {
        var queued: [QueuedFile] = []
        var skipped: [SkippedFile] = []
        var pending: [(URL, Recording)] = []
        var transactionSize = max(1, min(firstTransaction, filesPerTransaction))
        var skippedReported = 0

        func flush() throws {
            guard !pending.isEmpty || skipped.count > skippedReported else { return }
            let replaced = try queue.replaceChangedContent(of: pending.map(\.1))
            // The entries (with --journal) are dated when their audio was recorded, or `date`.
            let dates = journalName == nil ? nil : pending.map { date ?? recordedAt($0.0, $0.1) }
            let outcomes = pending.isEmpty ? []
                : try queue.addBatchFiles(pending.map(\.1), journalName: journalName, recordedAt: dates, priority: priority,
                                          reflect: reflect)
            let landed = zip(pending, outcomes).map { file, outcome in
                QueuedFile(url: file.0, outcome: outcome, replacedTranscript: replaced[file.1.path] == outcome.recordingId)
            }
            queued += landed
            pending.removeAll()
            onQueued(landed, Array(skipped[skippedReported...]))
            skippedReported = skipped.count
            transactionSize = min(transactionSize * 2, filesPerTransaction)
        }

        for (index, file) in files.enumerated() {
            if shouldStop() { break }
            switch index < prepared.count ? prepared[index] : prepare(file) {
            case .audio(let url, let recording): pending.append((url, recording))
            case .passedOver(let notAudio): skipped.append(notAudio)
            }
            if pending.count >= transactionSize { try flush() }
        }
        try flush()
        logger.debug("queued batch", metadata: ["files": "\(queued.count)", "skipped": "\(skipped.count)"])
        return (queued, skipped)
    }

    /// When a file's audio was recorded: what its container says (`RecordedDate`: a Broadcast
    /// WAV's origination, an MP4/M4A's creation time), else its modification time, else now.
    static func recordedAt(_ url: URL, _ recording: Recording) -> Date {
        RecordedDate.of(url) ?? recording.modifiedNanoseconds.map { Date(timeIntervalSince1970: Double($0) / 1e9) } ?? Date()
    }

    /// A file probed and hashed, ready to be stored, or passed over.
    public enum PreparedFile: Sendable {
        case audio(URL, Recording)
        case passedOver(SkippedFile)
    }

    /// Probes and hashes a walked file without touching the database: a command can do this
    /// for its first files while the journal opens.
    public static func prepare(_ file: WalkedFile) -> PreparedFile {
        let candidate: AudioCandidate
        switch BatchScanner.classify(file) {
        case .audio(let audio): candidate = audio
        case .passedOver(let notAudio): return .passedOver(notAudio)
        }
        do {
            // Stamped before hashing, and again after it: a file that changed meanwhile is
            // still being written.
            let stamp = FileStamp.current(path: candidate.url.path)
            if let stamp, !hasSettled(candidate.url, stamp: stamp) { return .passedOver(stillBeingWritten(candidate.url)) }
            let sha = try ContentDigest.sha256(fileAt: candidate.url)
            if FileStamp.current(path: candidate.url.path) != stamp { return .passedOver(stillBeingWritten(candidate.url)) }
            return .audio(candidate.url, recording(for: candidate, sha256: sha, stamp: stamp))
        } catch {
            return .passedOver(SkippedFile(url: candidate.url, reason: "cannot be read: \(error.localizedDescription)", wasNamed: false))
        }
    }

    /// Whether a file stamped `stamp` is left alone by its writer: modified at least
    /// `settleSeconds` ago, or still the same once that much time has passed (a wait). A
    /// modification time in the future (a device with a wrong clock) says nothing of a
    /// writer at work now: no wait, as each such file would cost one.
    static func hasSettled(_ url: URL, stamp: FileStamp, now: Date = Date()) -> Bool {
        let age = now.timeIntervalSince1970 - Double(stamp.modifiedNanoseconds) / 1e9
        guard age >= 0, age < settleSeconds else { return true }
        Thread.sleep(forTimeInterval: settleSeconds - age)
        return FileStamp.current(path: url.path) == stamp
    }

    private static func stillBeingWritten(_ url: URL) -> SkippedFile {
        SkippedFile(url: url, reason: "still being written (it changed while it was read); run again once it is finished",
                    wasNamed: false, comeBackLater: true)
    }

    static func recording(for candidate: AudioCandidate, sha256: String, stamp: FileStamp?) -> Recording {
        let info = candidate.info
        return Recording(
            path: candidate.url.path, sha256: sha256, durationSeconds: info?.durationSeconds ?? 0,
            sampleRate: info?.sampleRate ?? 0, channels: info?.channels ?? 0,
            format: info?.format ?? candidate.url.pathExtension.lowercased(),
            sizeBytes: stamp?.sizeBytes ?? candidate.sizeBytes, modifiedNanoseconds: stamp?.modifiedNanoseconds,
            state: .complete)
    }
}
