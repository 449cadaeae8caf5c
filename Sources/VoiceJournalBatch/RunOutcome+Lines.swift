import VoiceJournalQueue
import VoiceJournalTerminal

extension BatchOutcome {
    /// `transcribe`'s report on stdout once the run is wrapped up: each file that failed, the
    /// summary, and the endpoints' table when there were several.
    package func reportLines(_ wrapUp: BatchWrapUp) -> [String] {
        var lines = wrapUp.failed.map { RunText.failure(path: $0.url.path, message: $0.message) }
        lines.append(RunText.batchSummary(files: files, done: wrapUp.done, failed: wrapUp.failed.count,
                                          alreadyDone: alreadyDone, skipped: skipped, seconds: seconds))
        if let endpoints = run?.endpoints, endpoints.count > 1 { lines.append(RunText.endpointTable(endpoints)) }
        return lines
    }
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
