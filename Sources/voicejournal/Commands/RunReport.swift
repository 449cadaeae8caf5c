import Foundation
import Pipeline
import Terminal

/// What a `transcribe` or `queue run` prints at the end about its endpoints, and the JSON
/// document of `--json`.
enum RunReport {
    /// One line per endpoint under the summary, when the run had several: how much each did.
    static func endpointTable(_ endpoints: [EndpointFigures]) -> String {
        Table(headers: ["ENDPOINT", "WORKERS", "FILES", "AUDIO", "FAILED", "MEDIAN", "STATE"], rows: endpoints.map { figures in
            [TerminalText.escaped(figures.endpoint), String(figures.workers), String(figures.files),
             ProgressBar.clock(figures.audioSeconds), String(figures.failures),
             figures.medianLatency.map { String(format: "%.2f s", $0) } ?? "-",
             figures.state.rawValue + (figures.problem.map { ": " + TerminalText.escaped($0) } ?? "")]
        }, maxColumnWidth: 100).render()
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
