import VoiceJournalQueue
import VoiceJournalTerminal

/// What `transcribe` prints of the files it transcribed.
package enum BatchListing: Sendable, Equatable {
    /// Each transcript's text on stdout (under a `==> PATH <==` line when there are several);
    /// the rest of the report goes to stderr. `--print`, and a batch of one file.
    case texts
    /// A line per file saying where its text is, then the summary. A batch of several files.
    case files
    /// The summary only (and the failures). `--quiet`.
    case summary

    /// What is printed when `--print` (`text`) or `--quiet` is given, else as the batch's size asks.
    package init(text: Bool, quiet: Bool, files: Int) {
        self = text ? .texts : quiet ? .summary : files == 1 ? .texts : .files
    }
}

extension BatchOutcome {
    /// `transcribe`'s report: `out` for stdout, `notices` for stderr. With `--no-wait` (no
    /// wrap-up) what was queued; once the run is wrapped up, the files as `listing` says,
    /// each file that failed, the summary, and the endpoints' table when there were several.
    /// With the texts on stdout, the rest goes to stderr so the text can be redirected alone.
    package func report(_ listing: BatchListing) -> (out: [String], notices: [String]) {
        guard let wrapUp else { return ([RunText.queuedOnly(queued: queued, alreadyDone: alreadyDone, skipped: skipped)], []) }
        var lines = wrapUp.failed.map { RunText.failure(path: $0.url.path, message: $0.message) }
        lines.append(RunText.batchSummary(files: files, done: wrapUp.done, failed: wrapUp.failed.count,
                                          alreadyDone: alreadyDone, skipped: skipped, seconds: seconds))
        if let endpoints = run?.endpoints, endpoints.count > 1 { lines.append(RunText.endpointTable(endpoints)) }
        switch listing {
        case .summary: return (lines, [])
        case .files:
            let placed = wrapUp.transcribed.map { RunText.transcribed(path: $0.url.path, recordingId: $0.recordingId, entryId: $0.entryId) }
            return (placed + lines, [])
        case .texts:
            let several = wrapUp.transcribed.count > 1
            let texts = wrapUp.transcribed.enumerated().flatMap { index, file in
                // The server's words, shown as text: whatever they hold, the terminal obeys none of it.
                let text = TerminalText.escapedLines(file.text ?? "")
                return several ? (index > 0 ? [""] : []) + ["==> \(TerminalText.escaped(file.url.path)) <=="] + [text] : [text]
            }
            return (texts, lines)
        }
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
