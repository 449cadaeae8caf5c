/// A run's progress as its display shows it: the bar's numbers, and the text each thing that
/// happens adds. On a terminal that is one bar redrawn in place with lines printed above it;
/// off one, a plain line per file. Pure: the caller writes the text out (stderr).
package struct RunProgress: Sendable {
    /// Where the run stands: files finished and in all, chunks of split files, time so far.
    package private(set) var progress: BatchProgress
    /// Split files in progress: chunks transcribed and in all, by job.
    private var chunks: [Int64: Tally] = [:]
    private let tty: Bool
    /// Whether the run has several endpoints (messages then name the one they are about).
    private let pooled: Bool

    private struct Tally: Sendable {
        var done: Int
        var total: Int
    }

    /// A run of `total` files over `endpoints` servers, shown on a terminal when `tty`.
    package init(total: Int, endpoints: Int, tty: Bool) {
        progress = BatchProgress(total: total)
        self.tty = tty
        pooled = endpoints > 1
    }

    /// Files that turned out not to be work for this run (transcribed before, unreadable).
    package mutating func reduceTotal(by count: Int) {
        progress.total = max(0, progress.total - count)
    }

    /// The bar as it stands `elapsed` seconds in, to redraw in place; nil off a terminal.
    package mutating func bar(elapsed: Double, width: Int, color: Bool) -> String? {
        guard tty else { return nil }
        progress.elapsed = elapsed
        return ANSI.redrawLine + ProgressBar.line(progress, width: width, color: color)
    }

    // Each of the following is told whether the job is the run's (`counted`: a live
    // recording taken meanwhile is not) and gives the text to write, if any.

    /// A long file's chunks: `done` of `total` transcribed (0: it was just split).
    package mutating func chunksDone(jobId: Int64, path: String, done: Int, total: Int, counted: Bool) -> String? {
        guard counted else { return nil }
        setChunks(of: jobId, to: Tally(done: done, total: total))
        guard !tty else { return nil }
        return done == 0 ? "split \(TerminalText.escaped(path)) into \(total) chunks\n"
                         : "chunk \(done)/\(total) of \(TerminalText.escaped(path)) done\n"
    }

    /// A file transcribed in `seconds`.
    package mutating func transcribed(jobId: Int64, path: String, seconds: Double, counted: Bool) -> String? {
        if counted { progress.done += 1; setChunks(of: jobId, to: nil) }
        guard !tty else { return nil }
        return "\(counted ? tally : "")done \(TerminalText.escaped(path)) (\(ProgressBar.oneDecimal(seconds)) s)\n"
    }

    /// A file that failed for good.
    package mutating func failed(jobId: Int64, path: String, message: String, counted: Bool) -> String {
        if counted { progress.failed += 1; setChunks(of: jobId, to: nil) }
        return announce("\(counted ? tally : "")failed \(path): \(message)")
    }

    /// A file done with a transcript to doubt.
    package func suspect(path: String, message: String) -> String { announce("warning: \(path): \(message)") }

    /// A file whose translation is not stored; its transcript is.
    package func untranslated(path: String, message: String) -> String {
        announce("warning: translation not stored for \(path): \(message) (the transcript is stored)")
    }

    /// An upload that failed and is tried again in `after` seconds.
    package func willRetry(path: String, error: String, after: Double) -> String {
        announce("retrying \(path) in \(ProgressBar.oneDecimal(after)) s: \(error)")
    }

    /// An endpoint is out: retried for up to `retryingFor` seconds, or (nil) after a cool-down.
    package func endpointDown(_ endpoint: String, message: String, retryingFor: Double?) -> String {
        let retrying = retryingFor.map { "trying again for up to \(max(1, Int($0.rounded()))) s" } ?? "trying again after a cool-down"
        return notice(pooled
            ? "warning: endpoint \(endpoint) is out: \(message); its uploads go to the other endpoints, \(retrying)"
            : "\(message); pausing all uploads and \(retrying)")
    }

    /// An endpoint answers again after an outage.
    package func endpointBack(_ endpoint: String) -> String {
        notice(pooled ? "endpoint \(endpoint) answers again; it takes uploads again" : "the server answers again; resuming uploads")
    }

    /// An endpoint left out for the rest of the run while the others go on.
    package func endpointDropped(_ endpoint: String, message: String) -> String {
        notice("warning: endpoint \(endpoint) is left out of this run: \(message); the other endpoints go on")
    }

    /// `[3/10] `: files finished of the run's.
    private var tally: String { "[\(progress.finished)/\(progress.total)] " }

    /// A line above the bar (or simply a line, off a terminal). It quotes paths and
    /// servers' words, so it is escaped whole: one line, nothing the terminal obeys.
    /// What the run says of its servers: a notice like the command's others, under its name.
    private func notice(_ line: String) -> String { announce("voicejournal: " + line) }

    private func announce(_ line: String) -> String {
        let safe = TerminalText.escaped(line)
        return tty ? ANSI.redrawLine + safe + "\n" : safe + "\n"
    }

    private mutating func setChunks(of jobId: Int64, to tally: Tally?) {
        chunks[jobId] = tally
        progress.chunksDone = chunks.values.reduce(0) { $0 + $1.done }
        progress.chunksTotal = chunks.values.reduce(0) { $0 + $1.total }
        progress.partialFiles = chunks.values.reduce(0) { $0 + Double($1.done) / Double(max($1.total, 1)) }
    }
}
