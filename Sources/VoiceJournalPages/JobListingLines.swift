import VoiceJournalStore
import VoiceJournalTerminal

extension JobListing {
    /// What `queue list` prints: a table with a header, one row per job (its id, state, the
    /// attempts made of those it may make, its file, and where a long file's chunks stand or
    /// the last error), whatever the path or the server's message hold (`Table` escapes them
    /// and keeps each row one line); or one line saying there is none.
    package static func lines(_ listings: [JobListing], state: JobState?) -> [String] {
        guard !listings.isEmpty else { return [state.map { "No \($0.rawValue) jobs." } ?? "The queue is empty."] }
        let rows = listings.map { listing -> [String] in
            let job = listing.job
            var note: [String] = []
            if let done = listing.chunksDone, let total = listing.chunksTotal { note.append("chunks \(done) of \(total) done") }
            if let error = job.lastError, job.state != .done { note.append(error) }
            // Escaped here, not folded by the table: a newline in a file's name shows as `\n`, as it is.
            return [job.id.map(String.init) ?? "-", job.state.rawValue, "\(job.attempts) of \(job.maxAttempts)",
                    TerminalText.escaped(listing.path), TerminalText.escaped(note.joined(separator: "; "))]
        }
        // Paths and errors are shown whole: they are what the listing is read for.
        let table = Table(headers: ["JOB", "STATE", "ATTEMPTS", "FILE", "NOTE"], rows: rows, maxColumnWidth: 100_000).render()
        return table.split(separator: "\n").map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
    }
}
