import Foundation
import Logging
import VoiceJournalStore
import VoiceJournalTranscription

/// One worker of a run, on its own thread, uploading to one server of the run: claim a job,
/// upload, record the outcome, repeat. Every call here blocks (SQLite, libcurl), which is
/// why it never runs on the cooperative pool.
struct Worker {
    let run: Run
    let index: Int
    /// Which of the run's servers this worker uploads to.
    let server: Int

    var runner: QueueRunner { run.runner }
    var queue: JobQueue { runner.queue }
    var owner: String { runner.owner.description }
    var endpoint: RunEndpoint { run.servers[server] }

    func work() {
        let connection: WhisperConnection
        do {
            connection = try endpoint.client.makeConnection(abort: runner.abortSignal)
        } catch {
            runner.requestStop(.refused(error))
            return
        }
        do {
            // A finished batch was found so by the bookkeeper or another worker: end at once.
            while runner.stopReason == nil && !run.batchKnownFinished {
                let turn = endpoint.watch.turn(worker: index)
                switch turn {
                case .out:
                    try run.bookkeeper.handBackReserve(of: server, to: runner)
                    return
                case .wait(let seconds):
                    // The server is out for now: the jobs claimed ahead for it go back, and the
                    // run may end meanwhile if the other servers did the rest.
                    try run.bookkeeper.handBackReserve(of: server, to: runner)
                    if try isFinished() { return }
                    Thread.sleep(forTimeInterval: max(0.005, min(seconds, runner.options.idlePoll)))
                    continue
                case .work, .probe:
                    break
                }
                defer { if turn == .probe { endpoint.watch.endTurn(worker: index) } }
                let rings = run.doorbell.rings
                // A job claimed ahead for this server is this server's to do, unless the server
                // turned out slow since (see `keepsJobClaimedAhead`).
                let ahead = try keepsJobClaimedAhead(run.bookkeeper.take(for: server))
                if ahead == nil && turn == .work && run.prefersOthers(over: server) {
                    // Overflow: a preferred server has a worker free for the next job.
                    if try isFinished() { return }
                    try idle(after: rings, leavingDueJobs: true)
                    continue
                }
                // Only a claim of its own asks how many jobs this server should leave to faster
                // ones; a probe too, so that a server that did not answer does not hold one of
                // the last jobs for its whole deadline while the others could finish them.
                let minimum = ahead != nil ? 0 : run.tailMinimum(for: server)
                if let claimed = try ahead ?? queue.claimNextJobWithRecording(
                    owner: owner, lease: runner.options.lease, scope: run.scope, endpoint: endpoint.name, whileAtLeast: minimum) {
                    endpoint.beganUpload(worker: index)
                    defer { endpoint.endedUpload(worker: index) }
                    try process(claimed, on: connection)
                    run.doorbell.ring() // the run may be finished, or a chunk job became due
                } else if try run.takeBackJobsOfStoppedRunners() {
                    continue // a dead runner's jobs are due now: claim them
                } else if try isFinished() {
                    return
                } else {
                    try idle(after: rings, leavingDueJobs: minimum > 1)
                }
            }
        } catch {
            runner.logger.debug("queue store failed", metadata: ["error": "\(error)"])
            runner.requestStop(.storeFailed(StoreError.classify(error, home: queue.home)
                ?? StoreError(.storageFailure, "the journal database failed while running the queue: \(error)")))
        }
    }

    /// Whether there is nothing left for this run: its jobs are all finished, or (draining)
    /// nothing is queued. Called right after the jobs of dead runners on this machine were
    /// taken back, so the running jobs counted here have live owners.
    private func isFinished() throws -> Bool {
        switch run.goal {
        case .finishBatch:
            return try run.batchIsFinished()
        case .drainQueue:
            let counts = try queue.queueCounts()
            // Running jobs belong to live workers (ours or others'); theirs to finish. Ours
            // include the ones claimed ahead and the answers not yet stored. A recording still
            // being made waits for pieces to come: the run does not wait for it to end.
            return counts.queued <= (try queue.openLivePlanCount()) && run.bookkeeper.isIdle
        }
    }

    /// The job claimed ahead for this server, or nil after handing it back: a job claimed
    /// ahead while the server's speed was not known yet (its first upload still under way)
    /// goes back when the faster servers would now finish the jobs left sooner than this one
    /// would finish it, as a claim of its own would have left it (`Run.tailMinimum`).
    private func keepsJobClaimedAhead(_ ahead: JobQueue.ClaimedJob?) throws -> JobQueue.ClaimedJob? {
        guard let ahead, let jobId = ahead.job.id else { return ahead }
        let minimum = run.tailMinimum(for: server)
        // The held job is not queued: it counts as one of the jobs left.
        guard minimum > 1, !(try queue.dueJobsLeft(atLeast: minimum - 1)) else { return ahead }
        try queue.releaseJob(id: jobId, owner: owner)
        run.doorbell.ring() // a faster server's idle worker may take it now
        return nil
    }

    /// Waits a little for work to become due (a backoff ending, another runner's job), or
    /// until the doorbell rings (jobs queued, a job of this run ended). A worker that leaves
    /// due jobs to faster servers waits for the doorbell, not for those jobs to be due.
    private func idle(after rings: Int, leavingDueJobs: Bool = false) throws {
        var wait = runner.options.idlePoll
        if !leavingDueJobs, let due = try queue.queueCounts().nextDue {
            wait = min(wait, max(0.005, due.timeIntervalSinceNow))
        }
        run.doorbell.wait(after: rings, seconds: wait)
    }

    /// Uploads the job's recording (or chunk) and records the outcome; a transcript is handed
    /// to the bookkeeper to be stored while this worker goes on to its next file.
    /// The job's recording and vocabulary were read with its claim.
    private func process(_ claimed: JobQueue.ClaimedJob, on connection: WhisperConnection) throws {
        let job = claimed.job
        guard let jobId = job.id else { return }
        if job.isChunk, let chunk = try queue.chunk(jobId: jobId) {
            try processChunk(job, jobId: jobId, chunk: chunk, on: connection)
            return
        }
        guard let recording = claimed.recording else {
            try queue.failJob(id: jobId, owner: owner, error: "its recording was deleted", retryAt: nil)
            return
        }
        let path = recording.path
        run.onEvent(.started(jobId: jobId, path: path))
        guard case .upload(let stamp) = try checkFile(of: recording, jobId: jobId) else { return }
        let preparation = goesAsIsByItsRow(recording)
            ? try prepareShortUpload(of: recording, jobId: jobId)
            : try prepareUpload(of: recording, jobId: jobId)
        guard case .asIs(let speechHeard, let speech) = preparation else { return }
        let started = ProcessInfo.processInfo.systemUptime
        let request = TranscriptionRequest(file: URL(fileURLWithPath: path),
                                           filename: UploadPlan.uploadFilename(for: URL(fileURLWithPath: path), format: recording.format),
                                           options: try options(for: job.recordingId, vocabulary: claimed.vocabulary),
                                           audioSeconds: recording.durationSeconds > 0 ? recording.durationSeconds : nil)
        guard let result = try upload(request, on: connection, job: job, jobId: jobId, path: path,
                                      audioSeconds: recording.durationSeconds, expectsSpeech: speechHeard) else { return }
        if try fileChangedDuringUpload(recording, since: stamp, job: job, jobId: jobId) { return }
        let map = speech.map { speech in
            TimeMap.whole(seconds: recording.durationSeconds, speech: speech.map { TimeMap.Span(start: $0.lowerBound, end: $0.upperBound) })
        }
        let reviewed = reviewed(result, source: request.file, map: map, sentSeconds: recording.durationSeconds,
                                request: request, jobId: jobId, on: connection)
        let translation = try translation(of: request, transcript: reviewed.result, map: map, recordingId: job.recordingId,
                                          jobId: jobId, path: path, on: connection)
        let transcript = Transcript(
            recordingId: job.recordingId, text: reviewed.result.text.trimmingCharacters(in: .whitespacesAndNewlines),
            language: Self.language(of: result, sent: request), model: result.model,
            segments: reviewed.result.segments.map(Transcript.Segment.init),
            unheard: reviewed.storedUnheard, leftOut: reviewed.storedLeftOut,
            audioSentSeconds: reviewed.sentSeconds, resends: reviewed.resends,
            translation: translation.text, translationSegments: translation.segments, translationNote: translation.note)
        run.bookkeeper.store(.init(completion: .init(jobId: jobId, transcript: transcript), path: path, started: started))
    }

    /// The run's options with the vocabulary of the recording's journal in the prompt (read
    /// now unless given), the model of this worker's server when it names one, and the
    /// language: the run's `--language`, else the recording's person's or journal's, else
    /// the config file's, else none (the model detects it).
    func options(for recordingId: Int64, vocabulary: [String]? = nil) throws -> TranscriptionOptions {
        var options = runner.options.transcription.adding(vocabulary: try vocabulary ?? queue.vocabulary(forRecording: recordingId))
        if let model = endpoint.model { options.model = model }
        if options.language == nil {
            options.language = try queue.spokenLanguage(forRecording: recordingId).language ?? runner.options.fallbackLanguage
        }
        return options
    }

    /// The language a transcript is stored with: the one the answer names, else the one the
    /// upload sent (a `json` answer, gpt-4o's, names none), else none.
    static func language(of result: TranscriptionResult, sent request: TranscriptionRequest) -> String? {
        result.language ?? request.options.language
    }

    /// Whether the recording is translated to English as well: the run's `--translate`, or
    /// its person's or journal's setting.
    func wantsTranslation(of recordingId: Int64) throws -> Bool {
        try runner.options.translate || queue.spokenLanguage(forRecording: recordingId).translate
    }

    /// Uploads the job's audio (`audioSeconds` long, when known); nil when it failed, after
    /// the job was retried, failed or handed back (a server that is out takes no attempt).
    /// With `expectsSpeech` (speech was measured in it), an answer with no text is suspect.
    func upload(_ request: TranscriptionRequest, on connection: WhisperConnection, job: Job, jobId: Int64,
                path: String, audioSeconds: Double?, expectsSpeech: Bool) throws -> TranscriptionResult? {
        let started = ProcessInfo.processInfo.systemUptime
        var request = request
        if request.audioSeconds == nil { request.audioSeconds = audioSeconds }
        let answer: Result<TranscriptionResult, TranscriptionError>
        do {
            answer = .success(try connection.transcribe(request))
        } catch {
            answer = .failure(error)
        }
        if case .success(let result) = answer, expectsSpeech,
           result.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return try answeredEmpty(result, job: job, jobId: jobId, path: path)
        }
        do {
            let result = try answer.get()
            serverAnswered()
            endpoint.transcribed(audioSeconds: audioSeconds ?? result.durationSeconds ?? result.segments.last?.end ?? 0,
                                 latency: ProcessInfo.processInfo.systemUptime - started)
            return result
        } catch {
            var error = error
            if error.kind != .cancelled { endpoint.uploadFailed() }
            // A connection that broke or timed out, to a server that takes no new one either,
            // is the server gone (killed, switched off), not this file's fault.
            if (error.kind == .connection || error.kind == .timeout) && runner.stopReason == nil && !connection.canConnect() {
                error = TranscriptionError(kind: .unreachable, description: "\(error.description); \(endpoint.name) takes no new connection")
            }
            switch error.kind {
            case .unreachable, .noAnswer:
                // A server that took the upload and said nothing within the deadline is as
                // good as gone: out of the pool, probed, and the job goes to the others now.
                if error.kind == .noAnswer { endpoint.missedDeadline(after: ProcessInfo.processInfo.systemUptime - started) }
                try pause(for: error, jobId: jobId)
                return nil
            case .rateLimited where run.anotherServerAnswers(than: server):
                // This server is saturated, not the file at fault: another takes the job, and
                // the attempt is not spent (a server that answers 429 at once would otherwise
                // burn through every job's attempts). Several in a row cool it down.
                serverFailed(error)
                try queue.releaseJob(id: jobId, owner: owner, note: error.description)
                return nil
            case .serverError, .timeout, .connection, .malformedResponse, .rateLimited:
                serverFailed(error)
            default:
                if error.status != nil { serverAnswered() } // it refused the file: the server itself works
            }
            try handle(error, job: job, jobId: jobId, path: path)
            return nil
        }
    }

    /// A 200 with no text for audio that holds speech: a server answering everything with
    /// nothing would empty transcripts for good. It is counted against the server; while
    /// another server of the pool takes uploads the job is retried (several such answers in a
    /// row take this one out, so another gets it). With no other server to ask (or no
    /// attempt left) the empty text is stored, and said so with the way to try again: asking
    /// the same server again would only delay a take whose sound was no speech after all.
    private func answeredEmpty(_ result: TranscriptionResult, job: Job, jobId: Int64, path: String) throws -> TranscriptionResult? {
        let error = TranscriptionError(kind: .emptyAnswer, description: "\(endpoint.name) answered with no text for audio that holds speech")
        endpoint.answeredEmpty()
        if run.anotherServerAnswers(than: server) && job.attempts < job.maxAttempts {
            serverFailed(error)
            try handle(error, job: job, jobId: jobId, path: path)
            return nil
        }
        let recordingJob = try queue.chunk(jobId: jobId)?.parentJobId ?? jobId
        let message = "\(error.description); the empty text is stored: `voicejournal queue retry --done \(recordingJob)` tries again"
        run.summary.withLock { $0.suspects.append(.init(jobId: jobId, path: path, message: message)) }
        run.onEvent(.suspect(jobId: jobId, path: path, message: message))
        return result
    }

    private func handle(_ error: TranscriptionError, job: Job, jobId: Int64, path: String) throws {
        runner.logger.debug("upload failed", metadata: ["job": "\(jobId)", "error": "\(error.kind)", "attempt": "\(job.attempts)"])
        switch error.disposition {
        case .stopRun:
            // Every other file would fail the same way on this server: hand the job back
            // untouched and leave the server out (the run stops when it was the last).
            try queue.releaseJob(id: jobId, owner: owner, note: error.kind == .cancelled ? nil : error.description)
            if error.kind != .cancelled && endpoint.watch.drop() {
                run.serverIsOut(server, because: refusal(error), stop: .refused(lastServerError(error, refusal(error))))
            }
        case .failFile:
            try fail(jobId: jobId, path: path, message: error.description)
        case .retry where job.attempts < job.maxAttempts:
            let delay = runner.options.retry.delay(afterAttempt: job.attempts, serverWait: error.retryAfter)
            try queue.failJob(id: jobId, owner: owner, error: error.description, retryAt: Date().addingTimeInterval(delay))
            run.summary.withLock { $0.retried += 1 }
            run.onEvent(.willRetry(jobId: jobId, path: path, error: error, after: delay))
        case .retry:
            try fail(jobId: jobId, path: path, message: "\(error.description) (gave up after \(job.attempts) attempts)")
        }
    }

    /// The server could not be reached: not this file's fault, so the job goes back untouched
    /// and the server's uploads pause (or, after the last probe, it is given up; when it was
    /// the last server, the run stops with one summary).
    private func pause(for error: TranscriptionError, jobId: Int64) throws {
        try queue.releaseJob(id: jobId, owner: owner, note: error.description)
        switch endpoint.watch.unreachable(worker: index, nothingListens: error.nothingListens) {
        case .paused:
            runner.logger.debug("server unreachable; pausing its uploads", metadata: ["endpoint": "\(endpoint.name)", "error": "\(error.description)"])
            endpoint.noteProblem(error.description)
            // A server that does not answer is probed with uploads that each take their deadline.
            run.onEvent(.endpointDown(endpoint: endpoint.name, message: error.description,
                                      retryingFor: error.kind == .noAnswer ? nil : endpoint.watch.patience))
        case .stillPaused, .stillUp:
            break
        case .givesUp(let seconds):
            let outage = error.nothingListens ? "is not running: \(error.description)"
                : (error.kind == .noAnswer ? "did not answer for " : "could not be reached for ") + "\(Self.seconds(seconds)) s: \(error.description)"
            // The files left are counted when the run ends (see `Run.outOfReach`).
            let stop = (run.servers.count > 1 ? "no endpoint is left: the last, \(endpoint.name), " : "the server ") + outage
            run.serverIsOut(server, because: outage, stop: .outOfReach(stop))
        }
    }

    /// An answer came back: an outage, if there was one, is over.
    private func serverAnswered() {
        if endpoint.watch.answered() { run.onEvent(.endpointBack(endpoint: endpoint.name)) }
    }

    /// A server error, timeout or broken connection: several in a row take the server out
    /// for a cool-down.
    private func serverFailed(_ error: TranscriptionError) {
        guard endpoint.watch.serverFailed(worker: index) == .paused else { return }
        runner.logger.debug("server failing; cooling down", metadata: ["endpoint": "\(endpoint.name)", "error": "\(error.description)"])
        endpoint.noteProblem(error.description)
        run.onEvent(.endpointDown(endpoint: endpoint.name, message: error.description, retryingFor: nil))
    }

    /// Why the server refused the run, in words that name where its key came from (never the key).
    private func refusal(_ error: TranscriptionError) -> String {
        guard error.kind == .unauthorized else { return error.description }
        let said = error.serverMessage.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
        let key = endpoint.keyVariable.map { "the key in \($0)" } ?? "the request (no key was sent)"
        return "the server refused \(key) (HTTP \(error.status ?? 401)\(said))"
    }

    /// The error a run ends with when this server, refused, was the last one: as it is for
    /// one server, naming the server in a pool.
    private func lastServerError(_ error: TranscriptionError, _ refusal: String) -> TranscriptionError {
        guard run.servers.count > 1 else { return error }
        return TranscriptionError(kind: error.kind, status: error.status, serverMessage: error.serverMessage,
                                  description: "no endpoint is left: the last, \(endpoint.name): \(refusal)")
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value < 10 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }

    /// Fails the job for good; a chunk's failure fails its recording's job with its message.
    func fail(jobId: Int64, path: String, message: String) throws {
        var reported = jobId
        var shown = message
        if let chunk = try queue.chunk(jobId: jobId) {
            shown = "chunk \(chunk.index + 1): \(message)"
            guard let paths = try queue.failChunk(jobId: jobId, owner: owner, message: shown) else { return }
            paths.forEach(ChunkFiles.remove)
            reported = chunk.parentJobId
        } else {
            guard try queue.failJob(id: jobId, owner: owner, error: message, retryAt: nil) != nil else { return }
        }
        run.summary.withLock { _ = $0.failedJobs.insert(reported) }
        run.onEvent(.failed(jobId: reported, path: path, message: shown))
    }
}
