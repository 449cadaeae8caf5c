import VoiceJournalQueue
import VoiceJournalTerminal

extension BatchOutcome {
    /// `transcribe`'s report on stdout: with `--no-wait` (no wrap-up) what was queued; once the
    /// run is wrapped up, each file that failed, the summary, and the endpoints' table when
    /// there were several.
    package var reportLines: [String] {
        guard let wrapUp else { return [RunText.queuedOnly(queued: queued, alreadyDone: alreadyDone, skipped: skipped)] }
        var lines = wrapUp.failed.map { RunText.failure(path: $0.url.path, message: $0.message) }
        lines.append(RunText.batchSummary(files: files, done: wrapUp.done, failed: wrapUp.failed.count,
                                          alreadyDone: alreadyDone, skipped: skipped, seconds: seconds))
        if let endpoints = run?.endpoints, endpoints.count > 1 { lines.append(RunText.endpointTable(endpoints)) }
        return lines
    }

    /// What the wrap-up says on stderr: each file whose sidecars could not be written.
    package var sidecarNotices: [String] {
        (wrapUp?.sidecarProblems ?? []).map { "cannot write sidecars for \($0.url.path): \($0.message)" }
    }

    /// Whether some work failed (exit 1): a file failed for good, or a named path could not be used.
    package var failedWork: Bool { wrapUp?.failed.isEmpty == false || incomplete }
}

extension QueueRunner.Drained {
    /// `queue run`'s report on stdout: the summary, the endpoints' table when there were
    /// several, and where to see the failures when there were any.
    package var reportLines: [String] {
        var lines = [RunText.queueSummary(transcribed: summary.transcribed, failed: summary.failed, seconds: seconds)]
        if summary.endpoints.count > 1 { lines.append(RunText.endpointTable(summary.endpoints)) }
        if summary.failed > 0 { lines.append("see `voicejournal queue list --state failed`") }
        return lines
    }
}
