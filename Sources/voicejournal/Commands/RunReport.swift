import Foundation
import Queue
import Terminal

/// What a `transcribe` or `queue run` prints at the end about its endpoints, and the JSON
/// document of `--json`.
enum RunReport {
    /// One line per endpoint under the summary, when the run had several: how much each did.
    /// Its UPLOAD ERRORS are uploads that failed on that endpoint (the file went back to the
    /// queue, for it or another one); files that failed for good are the summary's "failed".
    /// A line under the table says so whenever the two could be read as the same count.
    static func endpointTable(_ endpoints: [EndpointFigures]) -> String {
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

/// `transcribe --json` and `queue run --json`: the run's outcome as one document on stdout.
struct RunJSON: Encodable {
    struct Failure: Encodable {
        let path: String
        let message: String
    }

    /// Files the run was given (`transcribe`) or found queued (`queue run`).
    let files: Int
    let transcribed: Int
    let failed: Int
    /// Files transcribed by an earlier run (`transcribe` only).
    let alreadyDone: Int?
    /// Paths that were not audio or could not be read (`transcribe` only).
    let skipped: Int?
    let retried: Int
    let seconds: Double
    let failures: [Failure]
    let endpoints: [EndpointFigures]
    /// Files done with a transcript to doubt (no speech heard although the audio is not
    /// silent; every answer empty), each with what to do about it.
    var suspect: [Failure] = []
}
