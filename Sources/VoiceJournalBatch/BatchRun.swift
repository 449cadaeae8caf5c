import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import VoiceJournalSystem

/// A batch to transcribe: which paths, into which journal, and how.
public struct BatchRequest: Sendable {
    /// Audio files and folders (walked recursively).
    public var paths: [String]
    /// Also make a voice entry per file in this journal; nil: none.
    public var journal: String?
    /// Transcribe again the files transcribed before.
    public var again = false
    /// Written next to each audio file that is transcribed.
    package var sidecars: [SidecarFormat] = []
    /// The servers the run uploads to; nil: only queue the files (`queue run` does the rest).
    public var pool: EndpointPool?
    /// How the run works (model, hints, uploads, backoff, leases).
    public var options = QueueRunner.Options()
    /// The date of every entry made (with `journal`); nil: each file's own (when its audio
    /// was recorded, else its modification time).
    public var date: Date?
    /// The wrap-up reads each transcribed file's text (`BatchWrapUp.Transcribed.text`); a
    /// batch of one file always does.
    public var keepTexts = false
    /// Each entry made (with `journal`) gets a reflection job (`reflect = "auto"`).
    public var reflect = false

    /// A batch of `paths` (files and folders), uploaded to `pool` (nil: only queued).
    public init(paths: [String], journal: String? = nil, again: Bool = false, pool: EndpointPool?) {
        self.init(paths: paths, journal: journal, again: again, sidecars: [], pool: pool)
    }

    package init(paths: [String], journal: String? = nil, again: Bool = false, sidecars: [SidecarFormat], pool: EndpointPool?) {
        self.paths = paths
        self.journal = journal
        self.again = again
        self.sidecars = sidecars
        self.pool = pool
    }
}

/// What a batch tells its caller as it goes, for lines and a progress display.
public enum BatchEvent: Sendable {
    /// A path passed over, and why (not audio, unreadable, still being written).
    case skipped(SkippedFile)
    /// A path transcribed before whose file now holds other audio: transcribed again.
    case replaced(QueuedFile)
    /// Something the user should read (an endpoint left out, files that could not be queued again).
    case notice(String)
    /// The run starts: at most `total` files over `endpoints` servers; `scope` holds its jobs
    /// (nil: every job, for a run that drains the queue).
    case runStarting(total: Int, endpoints: Int, scope: BatchScope?)
    /// Files that turned out not to be work for the run (transcribed before, not audio).
    case notWork(Int)
    /// What the queue runner reports of a job or an endpoint.
    case run(QueueRunner.Event)
    /// The run is over, either way.
    case runEnded
}

/// How a batch ended.
public struct BatchOutcome: Sendable {
    /// Files queued (or found queued), whether for this run or done before.
    public var files = 0
    /// Jobs this batch queued for transcription (those done before not counted).
    public var queued = 0
    /// Files transcribed by an earlier run.
    public var alreadyDone = 0
    /// Paths passed over (not audio, unreadable, still being written).
    public var skipped = 0
    /// Audio was skipped (a named path that is missing or not audio, an empty, truncated or
    /// damaged audio file, one still being written): the batch did not do all it was given.
    public var incomplete = false
    /// File by file, once the run is over; nil when the files were only queued.
    public var wrapUp: BatchWrapUp?
    /// What the run did (nil: no run, or nothing to run).
    public var run: QueueRunner.Summary?
    /// Seconds from the start of the queueing to the end of the wrap-up.
    public var seconds = 0.0
}

extension BatchQueue {
    /// Transcribes a batch: walks the paths, queues each audio file (probed and hashed), and
    /// with a pool runs the queue over the batch's jobs while the rest are still being
    /// queued, then writes the sidecars. `openStore` opens the journal: the first files (one
    /// per worker) are probed and hashed meanwhile. An unknown `journal` is a `StoreError`
    /// before anything is queued. Cancelling the task stops the run (its jobs stay queued)
    /// with `CancellationError`; a refused key or a server out of reach ends it with its
    /// `TranscriptionError`.
    public static func transcribe(_ request: BatchRequest, openStore: () throws -> JournalStore, logger: Logger,
                                  events: @escaping @Sendable (BatchEvent) -> Void) async throws -> BatchOutcome {
        let walk = BatchScanner.walk(request.paths)
        let head = Array(walk.files.prefix(request.pool?.workers ?? 0))
        async let headPrepared = head.isEmpty ? [] : onThread { head.map(prepare) }
        let store = try openStore()
        if let journal = request.journal, journal.caseInsensitiveCompare(Journal.defaultName) != .orderedSame {
            _ = try store.journal(named: journal)
        }
        for skipped in walk.skipped { events(.skipped(skipped)) }
        var outcome = BatchOutcome()
        let queued: [QueuedFile], skipped: [SkippedFile]
        let started = ProcessInfo.processInfo.systemUptime
        if let pool = request.pool {
            (queued, skipped, outcome.run) = try await run(walk.files, prepared: try await headPrepared, request, pool: pool,
                                                           store: store, logger: logger, events: events)
        } else {
            let files = walk.files
            (queued, skipped) = try await onThread {
                var enqueued = try enqueue(files, queue: store.queue, journalName: request.journal, date: request.date,
                                       reflect: request.reflect, logger: logger)
                if request.again { enqueued.queued = try queueAgain(enqueued.queued, store: store) }
                return enqueued
            }
            for file in skipped { events(.skipped(file)) }
            for file in queued where file.replacedTranscript { events(.replaced(file)) }
        }
        outcome.files = queued.count
        outcome.queued = Set(queued.filter { $0.outcome.jobState != .done }.map(\.outcome.jobId)).count
        outcome.alreadyDone = queued.count { $0.outcome.jobState == .done }
        outcome.skipped = walk.skipped.count + skipped.count
        // Audio that could not be transcribed (empty, truncated, damaged, still being written, a
        // named path missing) is work not done; a text file or picture beside it is not work.
        outcome.incomplete = (walk.skipped + skipped).contains { !$0.isNotWork }
        if request.pool != nil {
            let files = queued, texts = request.keepTexts || queued.count == 1
            outcome.wrapUp = try await onThread { try BatchWrapUp.make(files, store: store, sidecars: request.sidecars, texts: texts) }
            outcome.seconds = ProcessInfo.processInfo.systemUptime - started
        }
        return outcome
    }

    /// Queues the files on a thread of its own while a run uploads those already queued, so
    /// the first uploads start after a handful of files instead of after the whole folder is
    /// probed and hashed: the `prepared` ones (one per worker, probed while the journal
    /// opened) are queued before the run starts, so its workers find their first jobs at
    /// once. The run ends when the last file is queued and every one is finished.
    private static func run(_ files: [WalkedFile], prepared: [PreparedFile], _ request: BatchRequest, pool: EndpointPool,
                            store: JournalStore, logger: Logger, events: @escaping @Sendable (BatchEvent) -> Void) async throws
        -> (queued: [QueuedFile], skipped: [SkippedFile], run: QueueRunner.Summary?) {
        guard !files.isEmpty else { return ([], [], nil) }
        for line in pool.leftOut { events(.notice("warning: " + line)) }
        let runner = QueueRunner(queue: store.queue, endpoints: pool.endpoints, options: request.options, logger: logger)
        let batch = BatchScope()
        events(.runStarting(total: files.count, endpoints: runner.endpoints.count, scope: batch))
        defer { events(.runEnded) }
        let journal = request.journal, again = request.again
        let queued: @Sendable ([QueuedFile], [SkippedFile]) -> Void = { landed, skipped in
            for file in skipped { events(.skipped(file)) }
            var landed = landed
            if again {
                do {
                    landed = try queueAgain(landed, store: store)
                } catch {
                    events(.notice("cannot queue files again: \(error)"))
                    runner.stop()
                }
            }
            for file in landed where file.replacedTranscript { events(.replaced(file)) }
            batch.add(landed.filter { $0.outcome.jobState != .done }.map(\.outcome.jobId))
            // Files already transcribed before, and those not audio, are not part of this run's work.
            let notWork = skipped.count + landed.count { $0.outcome.jobState == .done }
            if notWork > 0 { events(.notWork(notWork)) }
        }
        let head = Array(files.prefix(prepared.count))
        let first = try await onThread {
            try enqueue(head, prepared: prepared, queue: store.queue, journalName: journal, date: request.date, reflect: request.reflect, logger: logger,
                        firstTransaction: prepared.count, onQueued: queued)
        }
        let rest = Array(files.dropFirst(prepared.count))
        let feeding = Task {
            try await onThread {
                defer { batch.close() }
                do {
                    return try enqueue(rest, queue: store.queue, journalName: journal, date: request.date, reflect: request.reflect, logger: logger,
                                       firstTransaction: runner.workers, shouldStop: { runner.takesNoMoreFiles }, onQueued: queued)
                } catch {
                    runner.stop()
                    throw error
                }
            }
        }
        var runFailure: Error?
        var summary: QueueRunner.Summary?
        do {
            summary = try await runner.run(until: .finishBatch(batch)) { events(.run($0)) }
        } catch {
            runFailure = error
        }
        // A store that failed while queueing says more than the stop it caused.
        let fed = try await feeding.value
        if let runFailure { throw runFailure }
        // Those done before were queued again as they landed (see `queued`): this run's work.
        let all = (first.queued + fed.queued).map { file in
            guard again, file.outcome.jobState == .done else { return file }
            var file = file
            file.outcome.jobState = .queued
            return file
        }
        return (all, first.skipped + fed.skipped, summary)
    }

    /// With `again`: the files done before are queued again (their transcripts stay until
    /// the new ones are in), and count as this run's work. Returns the files as they now stand.
    private static func queueAgain(_ files: [QueuedFile], store: JournalStore) throws -> [QueuedFile] {
        let done = files.filter { $0.outcome.jobState == .done }.map(\.outcome.jobId)
        guard !done.isEmpty else { return files }
        let requeued = Set(try store.queue.retryJobs(ids: done, done: true))
        return files.map { file in
            guard requeued.contains(file.outcome.jobId) else { return file }
            var file = file
            file.outcome.jobState = .queued
            return file
        }
    }
}
