import Foundation
import VoiceJournalAudio

/// What `play --json` prints when playback ends.
public struct PlayReport: Encodable, Sendable {
    public var file: String
    public var entryId: Int64?
    public var recordingId: Int64?
    public var assignmentId: Int64?
    /// Where playback started and stopped, in seconds on the recording's clock.
    public var from: Double
    public var to: Double
    public var seconds: Double
    /// `finished` (played to the end or to --to), `quit` (q), `interrupted` (a signal), `cut short`
    /// (the file lost its end while it played).
    public var end: String
    public var underruns: Int
    public var device: Device
    public var audio: Audio
    public var resampled: Bool

    public struct Device: Encodable, Sendable {
        public var name: String
        public var sampleRate: Int
        public var channels: Int
    }

    public struct Audio: Encodable, Sendable {
        public var format: String
        public var sampleRate: Int
        public var channels: Int
        public var durationSeconds: Double?
    }

    /// The report of `target` played by `session` on `device` from `start`, ended as `outcome` says.
    public init(_ target: PlayTarget, session: PlaybackSession, outcome: PlayerOutcome, from start: Double, device: String) {
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
