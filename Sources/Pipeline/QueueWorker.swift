import Foundation
import Logging
import Store
import Transcription

/// One worker of a run, on its own thread: claim a job, upload, record the outcome, repeat.
/// Every call here blocks (SQLite, libcurl), which is why it never runs on the cooperative pool.
struct Worker {
    let run: Run
    let index: Int

    var runner: QueueRunner { run.runner }
    var store: JournalStore { runner.store }
    var owner: String { runner.owner.description }

    func work() {
        let connection: WhisperConnection
        do {
            connection = try runner.client.makeConnection(abort: runner.abortSignal)
        } catch {
            runner.requestStop(.refused(error))
            return
        }
        do {
            while runner.stopReason == nil {
                let turn = run.endpoint.turn(worker: index)
                if case .wait(let seconds) = turn {
                    // Paused (the server is unreachable): the jobs claimed in advance go back.
                    try run.bookkeeper.handBackReserve(to: runner)
                    Thread.sleep(forTimeInterval: max(0.005, min(seconds, runner.options.idlePoll)))
                    continue
                }
                defer { if turn == .probe { run.endpoint.endTurn(worker: index) } }
                let rings = run.doorbell.rings
                let ahead = run.bookkeeper.take()
                if let job = try ahead?.job ?? store.claimNextJob(owner: owner, lease: runner.options.lease, scope: run.scope) {
                    try process(job, knownRecording: ahead?.recording, on: connection)
                    run.doorbell.ring() // the run may be finished, or a chunk job became due
                } else if try run.takeBackJobsOfStoppedRunners() {
                    continue // a dead runner's jobs are due now: claim them
                } else if try isFinished() {
                    return
                } else {
                    try idle(after: rings)
                }
            }
        } catch {
            runner.logger.debug("queue store failed", metadata: ["error": "\(error)"])
            runner.requestStop(.storeFailed(StoreError.classify(error, home: store.home)
                ?? StoreError(.storageFailure, "the journal database failed while running the queue: \(error)")))
        }
    }

    /// Whether there is nothing left for this run: its jobs are all finished, or (draining)
    /// nothing is queued. Called right after the jobs of dead runners on this machine were
    /// taken back, so the running jobs counted here have live owners.
    private func isFinished() throws -> Bool {
        switch run.goal {
        case .finishBatch(let batch):
            let (scope, closed) = batch.snapshot
            return try closed && store.unfinishedJobCount(scope: scope) == 0
        case .drainQueue:
            let counts = try store.queueCounts()
            // Running jobs belong to live workers (ours or others'); theirs to finish. Ours
            // include the ones claimed ahead and the answers not yet stored. A recording still
            // being made waits for pieces to come: the run does not wait for it to end.
            return counts.queued <= (try store.openLivePlanCount()) && run.bookkeeper.isIdle
        }
    }

    /// Waits a little for work to become due (a backoff ending, another runner's job), or
    /// until the doorbell rings (jobs queued, a job of this run ended).
    private func idle(after rings: Int) throws {
        var wait = runner.options.idlePoll
        if let due = try store.queueCounts().nextDue {
            wait = min(wait, max(0.005, due.timeIntervalSinceNow))
        }
        run.doorbell.wait(after: rings, seconds: wait)
    }

    /// Uploads the job's recording (or chunk) and records the outcome; a transcript is handed
    /// to the bookkeeper to be stored while this worker goes on to its next file.
    /// `knownRecording` is the job's recording when it was read with the claim (nil: look it up).
    private func process(_ job: Job, knownRecording: Recording?, on connection: WhisperConnection) throws {
        guard let jobId = job.id else { return }
        if job.isChunk, let chunk = try store.chunk(jobId: jobId) {
            try processChunk(job, jobId: jobId, chunk: chunk, on: connection)
            return
        }
        guard let recording = try knownRecording ?? store.recording(id: job.recordingId) else {
            try store.failJob(id: jobId, owner: owner, error: "its recording was deleted", retryAt: nil)
            return
        }
        let path = recording.path
        run.onEvent(.started(jobId: jobId, path: path))
        guard case .upload(let stamp) = try checkFile(of: recording, jobId: jobId) else { return }
        let preparation = goesAsIsByItsRow(recording)
            ? try prepareShortUpload(of: recording, jobId: jobId)
            : try prepareUpload(of: recording, jobId: jobId)
        if preparation == .handled { return }
        let started = ProcessInfo.processInfo.systemUptime
        let request = TranscriptionRequest(file: URL(fileURLWithPath: path), options: try options(for: job.recordingId))
        guard let result = try upload(request, on: connection, job: job, jobId: jobId, path: path) else { return }
        if try fileChangedDuringUpload(recording, since: stamp, job: job, jobId: jobId) { return }
        let transcript = Transcript(
            recordingId: job.recordingId, text: result.text.trimmingCharacters(in: .whitespacesAndNewlines),
            language: result.language, model: result.model,
            segments: result.segments.map { .init(start: $0.start, end: $0.end, text: $0.text) })
        run.bookkeeper.store(.init(completion: .init(jobId: jobId, transcript: transcript), path: path, started: started))
    }

    /// The run's options with the vocabulary of the recording's journal in the prompt.
    func options(for recordingId: Int64) throws -> TranscriptionOptions {
        runner.options.transcription.adding(vocabulary: try store.vocabulary(forRecording: recordingId))
    }

    /// Uploads the job's audio; nil when it failed, after the job was retried, failed or
    /// handed back (an unreachable server pauses the run).
    func upload(_ request: TranscriptionRequest, on connection: WhisperConnection, job: Job, jobId: Int64,
                path: String) throws -> TranscriptionResult? {
        do {
            let result = try connection.transcribe(request)
            serverAnswered()
            return result
        } catch {
            if error.kind == .unreachable {
                try pause(for: error, jobId: jobId)
                return nil
            }
            if error.status != nil || error.kind == .connection || error.kind == .malformedResponse { serverAnswered() }
            try handle(error, job: job, jobId: jobId, path: path)
            return nil
        }
    }

    private func handle(_ error: TranscriptionError, job: Job, jobId: Int64, path: String) throws {
        runner.logger.debug("upload failed", metadata: ["job": "\(jobId)", "error": "\(error.kind)", "attempt": "\(job.attempts)"])
        switch error.disposition {
        case .stopRun:
            // Every other file would fail the same way: hand the job back untouched and stop.
            try store.releaseJob(id: jobId, owner: owner, note: error.kind == .cancelled ? nil : error.description)
            if error.kind != .cancelled { runner.requestStop(.refused(error)) }
        case .failFile:
            try fail(jobId: jobId, path: path, message: error.description)
        case .retry where job.attempts < job.maxAttempts:
            let delay = runner.options.retry.delay(afterAttempt: job.attempts, serverWait: error.retryAfter)
            try store.failJob(id: jobId, owner: owner, error: error.description, retryAt: Date().addingTimeInterval(delay))
            run.summary.withLock { $0.retried += 1 }
            run.onEvent(.willRetry(jobId: jobId, path: path, error: error, after: delay))
        case .retry:
            try fail(jobId: jobId, path: path, message: "\(error.description) (gave up after \(job.attempts) attempts)")
        }
    }

    /// The server could not be reached: not this file's fault, so the job goes back untouched
    /// and the whole run pauses (or, after the last probe, gives up with one summary).
    private func pause(for error: TranscriptionError, jobId: Int64) throws {
        try store.releaseJob(id: jobId, owner: owner, note: error.description)
        switch run.endpoint.unreachable(worker: index) {
        case .paused:
            runner.logger.debug("server unreachable; pausing the run", metadata: ["error": "\(error.description)"])
            run.onEvent(.endpointUnreachable(message: error.description, retryingFor: run.endpoint.patience))
        case .stillPaused:
            break
        case .givesUp(let seconds):
            let left = try store.unfinishedJobCount(scope: run.scope)
            runner.requestStop(.refused(TranscriptionError(kind: .unreachable, description:
                "the server could not be reached for \(Self.seconds(seconds)) s: \(error.description); "
                + "\(left) file\(left == 1 ? "" : "s") stay\(left == 1 ? "s" : "") queued: run `voicejournal queue run` when it is back")))
        }
    }

    /// An answer came back: a pause, if there was one, is over.
    private func serverAnswered() {
        if run.endpoint.answered() { run.onEvent(.endpointBack) }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value < 10 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }

    /// Fails the job for good; a chunk's failure fails its recording's job with its message.
    func fail(jobId: Int64, path: String, message: String) throws {
        var reported = jobId
        var shown = message
        if let chunk = try store.chunk(jobId: jobId) {
            shown = "chunk \(chunk.index + 1): \(message)"
            guard let paths = try store.failChunk(jobId: jobId, owner: owner, message: shown) else { return }
            paths.forEach(ChunkFiles.remove)
            reported = chunk.parentJobId
        } else {
            guard try store.failJob(id: jobId, owner: owner, error: message, retryAt: nil) != nil else { return }
        }
        run.summary.withLock { $0.failed += 1 }
        run.onEvent(.failed(jobId: reported, path: path, message: shown))
    }
}
