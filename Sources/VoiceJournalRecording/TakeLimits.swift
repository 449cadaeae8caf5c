import VoiceJournalAudio
import VoiceJournalStore

/// A take's file and limits as `record` and `answer` take them (`--format`, `--max-duration`,
/// `--stop-on-silence`, `--silence-threshold`): checked against what a take can be, and made
/// into the request for a take.
package struct TakeLimits: Sendable {
    /// The file format's name: one of `AudioContainer`'s, in any case.
    package var format: String
    /// Seconds; 0: no limit.
    package var maxDuration: Double
    package var stopOnSilence: Double?
    package var silenceThreshold: Double

    /// The longest `--max-duration`: a week.
    package static let longestTake: Double = 7 * 86_400

    package init(format: String, maxDuration: Double, stopOnSilence: Double?, silenceThreshold: Double) {
        self.format = format
        self.maxDuration = maxDuration
        self.stopOnSilence = stopOnSilence
        self.silenceThreshold = silenceThreshold
    }

    /// What is wrong with these limits, in the options' words (the first thing, in the order
    /// above); nil: nothing.
    package var problem: String? {
        guard AudioContainer(rawValue: format.lowercased()) != nil else {
            return "--format must be one of: \(AudioContainer.allCases.map(\.rawValue).joined(separator: ", "))"
        }
        // Bounded so that no length or level overflows the frame counts made from it.
        guard maxDuration >= 0, maxDuration <= Self.longestTake else {
            return "--max-duration must be 0 (no limit) or up to \(Int(Self.longestTake)) seconds (a week)"
        }
        if let stopOnSilence, !(stopOnSilence > 0 && stopOnSilence <= 3600) {
            return "--stop-on-silence must be more than 0 and at most 3600 seconds"
        }
        guard silenceThreshold < 0, silenceThreshold >= -200 else {
            return "--silence-threshold is in dBFS and must be below 0 and at least -200"
        }
        return nil
    }

    /// The request for a take of `owner` from `device` at `format`, within these limits.
    package func request(device: String, format: CaptureFormat, owner: RecordingOwner, idempotencyKey: String?) -> RecordingRequest {
        RecordingRequest(
            device: device, format: format,
            container: AudioContainer(rawValue: self.format.lowercased()) ?? .wav,
            maxSeconds: maxDuration > 0 ? maxDuration : nil, stopOnSilenceSeconds: stopOnSilence,
            silenceThresholdDBFS: silenceThreshold, owner: owner, idempotencyKey: idempotencyKey)
    }
}
