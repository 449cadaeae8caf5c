import Foundation
import VoiceJournalAudio

/// What `play --json` prints when playback ends.
package struct PlayReport: Encodable, Sendable {
    package var file: String
    package var entryId: Int64?
    package var recordingId: Int64?
    package var assignmentId: Int64?
    /// Where playback started and stopped, in seconds on the recording's clock.
    package var from: Double
    package var to: Double
    package var seconds: Double
    /// `finished` (played to the end or to --to), `quit` (q), `interrupted` (a signal), `cut short`
    /// (the file lost its end while it played).
    package var end: String
    package var underruns: Int
    package var device: Device
    package var audio: Audio
    package var resampled: Bool

    package struct Device: Encodable, Sendable {
        package var name: String
        package var sampleRate: Int
        package var channels: Int
    }

    package struct Audio: Encodable, Sendable {
        package var format: String
        package var sampleRate: Int
        package var channels: Int
        package var durationSeconds: Double?
    }

    /// The report of `target` played by `session` on `device` from `start`, ended as `outcome` says.
    package init(_ target: PlayTarget, session: PlaybackSession, outcome: PlayerOutcome, from start: Double, device: String) {
        let result = outcome.result
        let info = session.fileInfo, format = session.deviceFormat, rate = Double(max(format.sampleRate, 1))
        (file, entryId, recordingId, assignmentId) = (target.url.path, target.entryId, target.recordingId, target.assignmentId)
        (from, to, seconds) = (start, Double(result.position) / rate, Double(result.framesPlayed) / rate)
        end = outcome.signal != nil ? "interrupted" : outcome.quit ? "quit" : result.cutShort ? "cut short" : "finished"
        underruns = result.underruns
        self.device = Device(name: device, sampleRate: format.sampleRate, channels: format.channels)
        audio = Audio(format: info?.format ?? "audio", sampleRate: info?.sampleRate ?? 0, channels: info?.channels ?? 0,
                      durationSeconds: session.status().totalSeconds)
        resampled = session.isResampled
    }
}
