import Foundation

/// What one endpoint did in a run, as the endpoint table shows it (the queue's figures
/// conform as they are).
package protocol EndpointTableRow {
    associatedtype State: RawRepresentable<String>
    /// The endpoint's base URL, credentials hidden.
    var endpoint: String { get }
    var workers: Int { get }
    /// Uploads it transcribed.
    var files: Int { get }
    var audioSeconds: Double { get }
    /// Uploads that failed on it (the file went back to the queue).
    var failures: Int { get }
    /// Of those, answers with no text for audio that holds speech.
    var emptyAnswers: Int { get }
    var medianLatency: Double? { get }
    var state: State { get }
    /// Why it was dropped or is cooling down.
    var problem: String? { get }
}

/// The sentences `transcribe` and `queue run` print about a run, and its endpoint table.
/// Pure: the caller prints them. Paths and servers' words are escaped where they are quoted.
package enum RunText {
    /// `Transcribed 3 of 4 files (1 failed, 2 already done before, 0 skipped) in 0:02.`
    package static func batchSummary(files: Int, done: Int, failed: Int, alreadyDone: Int, skipped: Int, seconds: Double) -> String {
        var parts = ["\(failed) failed"]
        if alreadyDone > 0 { parts.append("\(alreadyDone) already done before") }
        parts.append("\(skipped) skipped")
        return "Transcribed \(done) of \(files) file\(files == 1 ? "" : "s") (\(parts.joined(separator: ", "))) in \(ProgressBar.clock(seconds))."
    }

    /// `Transcribed 3 files, 1 failed, in 0:02.`
    package static func queueSummary(transcribed: Int, failed: Int, seconds: Double) -> String {
        "Transcribed \(transcribed) file\(transcribed == 1 ? "" : "s"), \(failed) failed, in \(ProgressBar.clock(seconds))."
    }

    /// What `transcribe --no-wait` says: `Queued 3 files (1 already transcribed), skipped 2. Run …`
    package static func queuedOnly(queued: Int, alreadyDone: Int, skipped: Int) -> String {
        "Queued \(queued) file\(queued == 1 ? "" : "s")"
            + (alreadyDone > 0 ? " (\(alreadyDone) already transcribed)" : "")
            + (skipped > 0 ? ", skipped \(skipped)" : "")
            + ". Run `voicejournal queue run` to transcribe them."
    }

    /// `skipped PATH: REASON`, one line.
    package static func skipped(path: String, reason: String) -> String {
        TerminalText.escaped("skipped \(path): \(reason)")
    }

    /// `PATH: entry 21 (voicejournal entry show 21)`, or for a file with no entry its recording
    /// and the command that prints its text: where a transcribed file's text is.
    package static func transcribed(path: String, recordingId: Int64, entryId: Int64?) -> String {
        let place = entryId.map { "entry \($0) (voicejournal entry show \($0))" }
            ?? "recording \(recordingId) (voicejournal export --format txt --recording \(recordingId))"
        return TerminalText.escaped("\(path): \(place)")
    }

    /// `failed: PATH: MESSAGE`, one line.
    package static func failure(path: String, message: String) -> String {
        TerminalText.escaped("failed: \(path): \(message)")
    }

    /// A path whose file changed since it was transcribed (a notice; not escaped yet).
    package static func replaced(path: String, recordingId: Int64) -> String {
        "\(path) changed since it was transcribed: recording \(recordingId) now holds its new audio "
            + "and is transcribed again (the old transcript is replaced)"
    }

    /// One line per endpoint under the summary, when the run had several: how much each did.
    /// Its UPLOAD ERRORS are uploads that failed on that endpoint (the file went back to the
    /// queue, for it or another one); files that failed for good are the summary's "failed".
    /// A line under the table says so whenever the two could be read as the same count.
    package static func endpointTable<Row: EndpointTableRow>(_ endpoints: [Row]) -> String {
        let table = Table(headers: ["ENDPOINT", "WORKERS", "FILES", "AUDIO", "UPLOAD ERRORS", "MEDIAN", "STATE"], rows: endpoints.map { figures in
            [TerminalText.escaped(figures.endpoint), String(figures.workers), String(figures.files),
             ProgressBar.clock(figures.audioSeconds),
             String(figures.failures) + (figures.emptyAnswers > 0 ? " (\(figures.emptyAnswers) empty)" : ""),
             figures.medianLatency.map { String(format: "%.2f s", $0) } ?? "-",
             figures.state.rawValue + (figures.problem.map { ": " + TerminalText.escaped($0) } ?? "")]
        }, maxColumnWidth: 100).render()
        guard endpoints.contains(where: { $0.failures > 0 }) else { return table }
        return table + "\nUPLOAD ERRORS: uploads that failed on the endpoint; their files went back to the queue "
            + "(files that failed for good are counted as failed above)."
    }
}
