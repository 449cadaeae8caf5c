import Audio
import Foundation
import Logging
import Store

/// A scanned file and where it now stands in the queue.
public struct QueuedFile: Sendable, Equatable {
    public var url: URL
    public var outcome: BatchFileOutcome
}

/// Turns scanned audio into recordings and queued jobs: hashes each file (streaming), then
/// stores them in batches, each batch one transaction. Re-running on the same files finds
/// what is there, so a batch killed at any point resumes without doubling anything.
public enum BatchQueue {
    /// Files per transaction: few enough that a kill loses little hashing, many enough
    /// that a folder of thousands is not thousands of disk syncs.
    public static let filesPerTransaction = 200

    /// Hashes and queues `audio`. A file that cannot be hashed is returned as skipped.
    /// `onQueued` is told after each transaction, with the files it queued and those skipped
    /// since the last (a run can start on them at once); `firstTransaction` files go in the
    /// first one, and each later transaction doubles, up to `filesPerTransaction`.
    /// `shouldStop` is asked before each file: what is queued by then stays queued.
    public static func enqueue(_ audio: [AudioCandidate], store: JournalStore, journalName: String?,
                               priority: Int = Job.batchPriority, logger: Logger,
                               firstTransaction: Int = filesPerTransaction,
                               shouldStop: () -> Bool = { false },
                               onQueued: ([QueuedFile], [SkippedFile]) -> Void = { _, _ in }) throws
        -> (queued: [QueuedFile], skipped: [SkippedFile]) {
        try enqueue(audio, prepared: [], classify: { .audio($0) }, store: store, journalName: journalName, priority: priority,
                    logger: logger, firstTransaction: firstTransaction, shouldStop: shouldStop, onQueued: onQueued)
    }

    /// The same for walked files, each probed here first (`BatchScanner.classify`): the
    /// files that are not audio come back as skipped, with the unreadable ones. `prepared`
    /// holds the first files already probed and hashed (`prepare`), in order.
    public static func enqueue(_ files: [WalkedFile], prepared: [PreparedFile] = [], store: JournalStore, journalName: String?,
                               priority: Int = Job.batchPriority, logger: Logger,
                               firstTransaction: Int = filesPerTransaction,
                               shouldStop: () -> Bool = { false },
                               onQueued: ([QueuedFile], [SkippedFile]) -> Void = { _, _ in }) throws
        -> (queued: [QueuedFile], skipped: [SkippedFile]) {
        try enqueue(files, prepared: prepared, classify: BatchScanner.classify, store: store, journalName: journalName,
                    priority: priority, logger: logger, firstTransaction: firstTransaction, shouldStop: shouldStop, onQueued: onQueued)
    }

    /// A file probed and hashed, ready to be stored, or passed over.
    public enum PreparedFile: Sendable {
        case audio(URL, Recording)
        case passedOver(SkippedFile)
    }

    /// Probes and hashes a walked file without touching the database: a command can do this
    /// for its first files while the journal opens.
    public static func prepare(_ file: WalkedFile) -> PreparedFile {
        prepare(file, classify: BatchScanner.classify)
    }

    private static func prepare<Item>(_ item: Item, classify: (Item) -> BatchScanner.Classified) -> PreparedFile {
        let candidate: AudioCandidate
        switch classify(item) {
        case .audio(let audio): candidate = audio
        case .passedOver(let notAudio): return .passedOver(notAudio)
        }
        do {
            // Stamped before hashing: a change while hashing shows as a stamp that no
            // longer matches, and the file is hashed again before its upload.
            let stamp = FileStamp.current(path: candidate.url.path)
            let sha = try ContentDigest.sha256(fileAt: candidate.url)
            return .audio(candidate.url, recording(for: candidate, sha256: sha, stamp: stamp))
        } catch {
            return .passedOver(SkippedFile(url: candidate.url, reason: "cannot be read: \(error.localizedDescription)", wasNamed: false))
        }
    }

    private static func enqueue<Item>(_ items: [Item], prepared: [PreparedFile], classify: (Item) -> BatchScanner.Classified,
                                      store: JournalStore, journalName: String?, priority: Int, logger: Logger,
                                      firstTransaction: Int, shouldStop: () -> Bool,
                                      onQueued: ([QueuedFile], [SkippedFile]) -> Void) throws
        -> (queued: [QueuedFile], skipped: [SkippedFile]) {
        var queued: [QueuedFile] = []
        var skipped: [SkippedFile] = []
        var pending: [(URL, Recording)] = []
        var transactionSize = max(1, min(firstTransaction, filesPerTransaction))
        var skippedReported = 0

        func flush() throws {
            guard !pending.isEmpty || skipped.count > skippedReported else { return }
            let outcomes = pending.isEmpty ? []
                : try store.addBatchFiles(pending.map(\.1), journalName: journalName, priority: priority)
            let landed = zip(pending, outcomes).map { QueuedFile(url: $0.0.0, outcome: $0.1) }
            queued += landed
            pending.removeAll()
            onQueued(landed, Array(skipped[skippedReported...]))
            skippedReported = skipped.count
            transactionSize = min(transactionSize * 2, filesPerTransaction)
        }

        for (index, item) in items.enumerated() {
            if shouldStop() { break }
            switch index < prepared.count ? prepared[index] : prepare(item, classify: classify) {
            case .audio(let url, let recording): pending.append((url, recording))
            case .passedOver(let notAudio): skipped.append(notAudio)
            }
            if pending.count >= transactionSize { try flush() }
        }
        try flush()
        logger.debug("queued batch", metadata: ["files": "\(queued.count)", "skipped": "\(skipped.count)"])
        return (queued, skipped)
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
