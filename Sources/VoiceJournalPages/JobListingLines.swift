import VoiceJournalStore
import VoiceJournalTerminal

extension JobListing {
    /// What `queue list` prints: one line per job, whatever the path or the server's message
    /// hold (both escaped; the tabs between the fields are ours), or one line saying there is none.
    package static func lines(_ listings: [JobListing], state: JobState?) -> [String] {
        guard !listings.isEmpty else { return [state.map { "No \($0.rawValue) jobs." } ?? "The queue is empty."] }
        return listings.map { listing in
            let job = listing.job
            var line = "\(job.id.map(String.init) ?? "-")\t\(job.state.rawValue)\t\(job.attempts)/\(job.maxAttempts)\t\(TerminalText.escaped(listing.path))"
            if let done = listing.chunksDone, let total = listing.chunksTotal { line += "\tchunks \(done)/\(total)" }
            if let error = job.lastError, job.state != .done { line += "\t" + TerminalText.escaped(error) }
            return line
        }
    }
}
