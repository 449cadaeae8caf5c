import VoiceJournalAudio
import Foundation
import VoiceJournalQueue
import Synchronization
import VoiceJournalTerminal
import VoiceJournalSystem

/// What ends a take early, pressed from Enter or a signal handler. While the take is captured
/// it stops the capture for that reason (what was captured is kept); while its live transcript
/// is awaited, an interrupt stops the transcription (its jobs stay queued) and Enter does
/// nothing. A press before the capture started stops it as soon as it starts.
package final class StopButton: Sendable {
    private enum Target: Sendable {
        case none(pressed: StopReason?)
        case capture(CaptureSession)
        case transcription(InProcessTranscriber)
    }

    private let target = Mutex(Target.none(pressed: nil))

    package init() {}

    /// Ends the capture (or the wait for its transcript) for `reason`.
    package func press(_ reason: StopReason) {
        let target = target.withLock { target in
            if case .none(nil) = target { target = .none(pressed: reason) }
            return target
        }
        switch target {
        case .none: break
        case .capture(let capture): capture.stop(reason)
        case .transcription(let transcriber): if case .interrupted = reason { transcriber.interrupt() }
        }
    }

    /// From now on a press stops `capture`.
    func wire(to capture: CaptureSession) {
        let earlier = target.withLock { target in
            defer { target = .capture(capture) }
            if case .none(let pressed) = target { return pressed }
            return nil
        }
        if let earlier { capture.stop(earlier) }
    }

    /// From now on an interrupt stops `transcriber`.
    func wire(to transcriber: InProcessTranscriber) {
        target.withLock { $0 = .transcription(transcriber) }
    }
}

extension StopButton {
    /// Runs a capture with its meter (if `showing`) and lines given to `write` (the command
    /// draws them on stderr), Enter, SIGINT and SIGTERM pressing its stop button; `saved` is
    /// told a take before its transcript is awaited.
    package static func withMeter<T>(showing: Bool, hint: @escaping (URL?) -> String, saved: @escaping (RecordingOutcome) -> Void,
                                     write: @escaping (String) -> Void,
                                     _ work: (StopButton, (TakeProgress) -> Void) async throws -> T) async throws -> T {
        let stop = StopButton()
        let signals = SignalWatch { stop.press(.interrupted(signal: $0)) }
        let enter = EnterKeyWatch { stop.press(.requested) }
        defer { signals.cancel() }
        defer { enter.cancel() }
        var display = LevelDisplay(showing: showing, terminal: .detect(fileDescriptor: STDERR_FILENO))
        return try await work(stop) { progress in
            if case .saved(let outcome) = progress { saved(outcome) }
            let text = progress.text(on: &display, hint: hint)
            if !text.isEmpty { write(text) }
        }
    }
}
