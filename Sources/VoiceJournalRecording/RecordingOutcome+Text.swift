import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// How `record` and `answer` end once a take is said: done, failed work (exit 1) with the line
/// saying why, or interrupted (exit 130) with the line saying what stays (nil: a signal stopped
/// the take, and nothing more is said).
package enum TakeEnding: Sendable, Equatable {
    case done
    case failed(String)
    case interrupted(String?)
}

extension RecordingOutcome {
    /// Says the saved recording as `record` and `answer` print it: the outcome (human or JSON)
    /// to `say`, then the warning for dropped audio to `warn`. Ends failed if the device or disk
    /// failed mid-way (what was captured is saved), interrupted after a signal.
    /// `live`: the take is being transcribed as it ends (`record --live`), not only queued.
    package func report(json: Bool, live: Bool = false, say: (String) -> Void, warn: (String) -> Void) throws -> TakeEnding {
        say(json ? try jsonText() : summaryLines(live: live).joined(separator: "\n"))
        if let overrunWarning { warn(overrunWarning) }
        if let captureError { return .failed("recording stopped early: \(captureError) (what was captured is saved)") }
        if case .interrupted = stopReason { return .interrupted(nil) }
        return .done
    }

    /// What `record` and `answer` say of a saved recording: its length and levels, its file,
    /// what it belongs to (with the command that shows it: entries and recordings are numbered
    /// apart), and its transcription: under way (`live`), or queued with what runs it.
    package func summaryLines(live: Bool = false) -> [String] {
        let seconds = String(format: "%.1f", recording.durationSeconds)
        let levels = "peak \(String(format: "%.1f", recording.peakDBFS ?? 0)) dBFS, rms \(String(format: "%.1f", recording.rmsDBFS ?? 0)) dBFS"
        return ["Saved recording \(recordingId): \(seconds) s, \(levels)", "  file: \(TerminalText.escaped(recording.path))"]
            + (recording.entryId.map { ["  entry \($0): voicejournal entry show \($0)"] } ?? [])
            + (recording.assignmentId.map { ["  answers assignment \($0): voicejournal assignment show \($0)"] } ?? [])
            + [live ? "  transcribing the rest of it now (job \(jobId))"
                    : "  transcription queued (job \(jobId)): `voicejournal queue run` transcribes it (so does a running `voicejournal serve --transcribe`)"]
    }

    /// The warning for audio the device dropped (nil: none).
    package var overrunWarning: String? {
        overruns > 0 ? "warning: \(overruns) overrun(s): the device dropped audio that was not read in time" : nil
    }

    /// What `record --json` and `answer --json` print: one line; absent keys for no entry,
    /// no assignment, no transcript.
    package func jsonText(transcript: Transcript? = nil) throws -> String {
        try JSONText.encode(SavedRecordingJSON(
            recordingId: recordingId, jobId: jobId, path: recording.path,
            durationSeconds: recording.durationSeconds, sampleRate: recording.sampleRate,
            channels: recording.channels, format: recording.format, sizeBytes: recording.sizeBytes,
            sha256: recording.sha256 ?? "", peakDBFS: recording.peakDBFS ?? 0, rmsDBFS: recording.rmsDBFS ?? 0,
            stopReason: stopReason.map(Self.name) ?? "attached", overruns: overruns,
            entryId: recording.entryId, assignmentId: recording.assignmentId, transcript: transcript?.text), pretty: false)
    }

    private struct SavedRecordingJSON: Encodable {
        let recordingId: Int64, jobId: Int64, path: String
        let durationSeconds: Double, sampleRate: Int, channels: Int, format: String, sizeBytes: Int64
        let sha256: String, peakDBFS: Double, rmsDBFS: Double, stopReason: String, overruns: Int
        let entryId: Int64?, assignmentId: Int64?, transcript: String?
    }

    /// The stop reason's name in JSON.
    static func name(_ reason: StopReason) -> String {
        switch reason {
        case .requested: "enter"
        case .interrupted: "signal"
        case .maxDuration: "max-duration"
        case .silence: "silence"
        case .failed: "failed"
        }
    }
}
