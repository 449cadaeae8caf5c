/// What `queue status` prints. Pure: the caller prints it.
package enum QueueText {
    /// A job running now: which file (and chunk), and which server it went to.
    package typealias Running = (jobId: Int64, path: String, chunk: Int?, endpoint: String?)

    /// Running jobs listed by name; a pool of big servers can run hundreds at once.
    package static let runningShown = 20

    /// `queued 2 · running 1 · done 5 · failed 0 · cancelled 0`, then a line per running job
    /// (at most `runningShown`), when the next job is due if it waits on a backoff
    /// (`nextDueIn` seconds), and what to do about failed jobs.
    package static func status(queued: Int, running: Int, done: Int, failed: Int, cancelled: Int,
                              runningJobs: [Running], nextDueIn: Double?) -> String {
        var lines = ["queued \(queued) · running \(running) · done \(done) · failed \(failed) · cancelled \(cancelled)"]
        for job in runningJobs.prefix(runningShown) {
            let chunk = job.chunk.map { " (chunk \($0))" } ?? ""
            // The path and the endpoint come from outside: they are escaped, the tabs between them are ours.
            let endpoint = job.endpoint.map(TerminalText.escaped) ?? "an unnamed endpoint"
            lines.append("  running \(job.jobId)\t\(TerminalText.escaped(job.path))\(chunk)\ton \(endpoint)")
        }
        if runningJobs.count > runningShown {
            lines.append("  … and \(runningJobs.count - runningShown) more running (`queue status --json` lists them all)")
        }
        if let due = nextDueIn, due > 1 { lines.append("next queued job is due in \(ProgressBar.clock(due)) (backoff)") }
        if failed > 0 { lines.append("see `voicejournal queue list --state failed`; retry with `voicejournal queue retry --failed`") }
        return lines.joined(separator: "\n")
    }
}
