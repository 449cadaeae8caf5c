import ArgumentParser
import Foundation
import Logging
import Intake
import Queue
import Settings
import Store
import Terminal

/// `transcribe PATH...` — queue audio files and folders and transcribe them.
struct Transcribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe audio files and folders (recursively) through the queue.",
        discussion: """
            Audio is a regular file libsndfile or FFmpeg's libraries can decode (WAV, FLAC, \
            OGG, Opus, MP3, AIFF, M4A/AAC, MP4, WebM, ...); anything else is skipped with a line \
            saying why: pipes, devices and sockets (never read), dangling or looping links, \
            files neither library decodes, and truncated audio (the header promises more than \
            the file holds). Symbolic links are followed; hidden files and folders are passed \
            over without a word. \
            Files are not copied: their paths are stored. The same \
            audio is uploaded and stored once, however often it is given; running the \
            command again after a crash resumes where it stopped.

            Needs $OPENAI_API_KEY unless the base URL is a local server. Exit codes: 0 all \
            transcribed, 1 a file failed for good (or a named path could not be used), \
            3 bad key / no quota / unreachable server, 130 interrupted.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Audio files and folders.", valueName: "path"))
    var paths: [String]

    @Option(help: JobsHelp.uploads)
    var jobs: Int?

    @OptionGroup var transcription: TranscriptionFlags

    @Option(help: ArgumentHelp("Also make a voice entry per file in this journal (Personal is made on first use).", valueName: "name"))
    var journal: String?

    @Option(help: ArgumentHelp("Write these next to each audio file: any of txt,srt,vtt,json.", valueName: "formats"))
    var sidecar: String?

    @Flag(help: "Only queue the files; `voicejournal queue run` transcribes them later.")
    var noWait = false

    @Flag(help: "Transcribe files again that were transcribed before; each keeps its transcript until the new one is stored (and if the new attempt fails).")
    var again = false

    @Flag(help: "At the end, one JSON document on stdout: counts, failures, and what each endpoint did.")
    var json = false

    func validate() throws {
        if let jobs { try validateJobs(jobs) }
        if json && noWait { throw ValidationError("--json reports a run; --no-wait only queues.") }
        if let sidecar, case .failure(let error) = SidecarFormat.parseList(sidecar) {
            throw ValidationError("--sidecar: \(error.description).")
        }
        if let journal, journal.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--journal needs a name.")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try global.settings(transcription.flags(jobs: jobs))
        let sidecars = (try? sidecar.map { try SidecarFormat.parseList($0).get() }) ?? nil
        // Check the endpoints and keys before touching anything, unless we only queue.
        let pool = noWait ? nil : try transcription.endpoints(settings, jobs: jobs, environment: environment)
        // The walk only lists paths; each file is probed as it is queued. The files the first
        // uploads need (one per worker) are probed and hashed while the journal opens.
        let walk = BatchScanner.walk(paths)
        let head = Array(walk.files.prefix(pool?.endpoints.reduce(0) { $0 + $1.workers } ?? 0))
        async let headPrepared = head.isEmpty ? [] : onThread { head.map(BatchQueue.prepare) }
        let store = try global.openStore()
        let logger = Logger(label: "voicejournal.batch")
        // An unknown journal is a usage error before anything is queued or reported (exit 2).
        if let journal, journal.caseInsensitiveCompare(Journal.defaultName) != .orderedSame {
            _ = try store.journal(named: journal)
        }
        for skipped in walk.skipped { Self.report(skipped) }

        guard let pool else { // --no-wait: queue only
            var (queued, unreadable) = try BatchQueue.enqueue(walk.files, queue: store.queue, journalName: journal, logger: logger)
            if again { queued = try Self.queueAgain(queued, store: store) }
            for skipped in unreadable { Self.report(skipped) }
            for file in queued where file.replacedTranscript { Self.reportReplaced(file) }
            let alreadyDone = queued.filter { $0.outcome.jobState == .done }.count
            let skippedCount = walk.skipped.count + unreadable.count
            let skipFailsTheRun = (walk.skipped + unreadable).contains { $0.wasNamed || $0.comeBackLater }
            let targets = Set(queued.filter { $0.outcome.jobState != .done }.map(\.outcome.jobId))
            print("Queued \(targets.count) file\(targets.count == 1 ? "" : "s")"
                  + (alreadyDone > 0 ? " (\(alreadyDone) already transcribed)" : "")
                  + (skippedCount > 0 ? ", skipped \(skippedCount)" : "")
                  + ". Run `voicejournal queue run` to transcribe them.")
            if skipFailsTheRun { throw ExitCode(CLIError.failure) }
            return
        }

        let started = ProcessInfo.processInfo.systemUptime
        let (queued, unreadable, run) = try await queueAndTranscribe(walk.files, prepared: try await headPrepared, pool: pool,
                                                                      store: store, logger: logger, settings: settings,
                                                                      environment: environment)
        let skippedCount = walk.skipped.count + unreadable.count
        let skipFailsTheRun = (walk.skipped + unreadable).contains { $0.wasNamed || $0.comeBackLater }
        let alreadyDone = queued.filter { $0.outcome.jobState == .done }.count

        let wrapUp = try BatchWrapUp.make(queued, store: store, sidecars: sidecars ?? [])
        for problem in wrapUp.sidecarProblems {
            printNotice("cannot write sidecars for \(problem.url.path): \(problem.message)")
        }
        let seconds = ProcessInfo.processInfo.systemUptime - started
        if json {
            try printJSON(RunJSON(
                files: queued.count, transcribed: wrapUp.done, failed: wrapUp.failed.count, alreadyDone: alreadyDone,
                skipped: skippedCount, retried: run?.retried ?? 0, seconds: seconds,
                failures: wrapUp.failed.map { .init(path: $0.url.path, message: $0.message) }, endpoints: run?.endpoints ?? [],
                suspect: (run?.suspects ?? []).map { .init(path: $0.path, message: $0.message) }))
        } else {
            for failure in wrapUp.failed {
                print(TerminalText.escaped("failed: \(failure.url.path): \(failure.message)"))
            }
            print(summary(files: queued.count, done: wrapUp.done, failed: wrapUp.failed.count, alreadyDone: alreadyDone,
                          skipped: skippedCount, seconds: seconds))
            if let endpoints = run?.endpoints, endpoints.count > 1 { print(RunReport.endpointTable(endpoints)) }
        }
        if !wrapUp.failed.isEmpty || skipFailsTheRun { throw ExitCode(CLIError.failure) }
    }

    /// Queues the files on a thread of its own while a run uploads those already queued, so
    /// the first uploads start after a handful of files instead of after the whole folder is
    /// probed and hashed: the `prepared` ones (one per worker, probed while the journal
    /// opened) are queued before the run starts, so its workers find their first jobs at
    /// once. The run ends when the last file is queued and every one is finished.
    private func queueAndTranscribe(_ files: [WalkedFile], prepared: [BatchQueue.PreparedFile], pool: TranscriptionFlags.Pool,
                                    store: JournalStore, logger: Logger,
                                    settings: Settings, environment: [String: String]) async throws
        -> (queued: [QueuedFile], skipped: [SkippedFile], run: QueueRunner.Summary?) {
        guard !files.isEmpty else { return ([], [], nil) }
        let runner = transcription.makeRunner(store: store, settings: settings, pool: pool, environment: environment)
        let batch = BatchScope()
        let display = BatchProgressDisplay(total: files.count, scope: batch, endpoints: runner.endpoints.count)
        let journal = journal, again = again
        let queued: @Sendable ([QueuedFile], [SkippedFile]) -> Void = { landed, skipped in
            for file in skipped { Self.report(file) }
            var landed = landed
            if again {
                do {
                    landed = try Self.queueAgain(landed, store: store)
                } catch {
                    printNotice("cannot queue files again: \(error)")
                    runner.stop()
                }
            }
            for file in landed where file.replacedTranscript { Self.reportReplaced(file) }
            batch.add(landed.filter { $0.outcome.jobState != .done }.map(\.outcome.jobId))
            // Files already transcribed before, and those not audio, are not part of this run's work.
            display.reduceTotal(by: skipped.count + landed.count { $0.outcome.jobState == .done })
        }
        let first = try BatchQueue.enqueue(Array(files.prefix(prepared.count)), prepared: prepared, queue: store.queue,
                                           journalName: journal, logger: logger, firstTransaction: prepared.count,
                                           onQueued: queued)
        let rest = Array(files.dropFirst(prepared.count))
        let feeding = Task {
            try await onThread {
                defer { batch.close() }
                do {
                    return try BatchQueue.enqueue(
                        rest, queue: store.queue, journalName: journal, logger: logger,
                        firstTransaction: runner.workers, shouldStop: { runner.isStopping }, onQueued: queued)
                } catch {
                    runner.stop()
                    throw error
                }
            }
        }
        var runFailure: Error?
        var summary: QueueRunner.Summary?
        do {
            summary = try await runQueue(runner, until: .finishBatch(batch), display: display)
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

    /// With `--again`: the files done before are queued again (their transcripts stay until
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

    private static func report(_ skipped: SkippedFile) {
        FileHandle.standardError.write(Data((TerminalText.escaped("skipped \(skipped.url.path): \(skipped.reason)") + "\n").utf8))
    }

    private static func reportReplaced(_ file: QueuedFile) {
        printNotice("\(file.url.path) changed since it was transcribed: recording \(file.outcome.recordingId) now holds its new audio "
                    + "and is transcribed again (the old transcript is replaced)")
    }

    private func summary(files: Int, done: Int, failed: Int, alreadyDone: Int, skipped: Int, seconds: Double) -> String {
        var parts = ["\(failed) failed"]
        if alreadyDone > 0 { parts.append("\(alreadyDone) already done before") }
        parts.append("\(skipped) skipped")
        return "Transcribed \(done) of \(files) file\(files == 1 ? "" : "s") (\(parts.joined(separator: ", "))) in \(ProgressBar.clock(seconds))."
    }
}
