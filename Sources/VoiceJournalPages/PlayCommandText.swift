import VoiceJournalStore
import VoiceJournalTerminal

/// The ready command that plays a recording from a moment, as `search`, `entry show` and
/// `assignment show` print it: `voicejournal play 12 --at 04:50`, `--recording 40` or
/// `--assignment 3` for recordings that are not an entry's. The time is whole seconds
/// (`PlaybackStart`), `MM:SS` or `H:MM:SS` from an hour on, and left out at the start.
package enum PlayCommandText {
    /// Plays entry `id`'s recording.
    package static func entry(_ id: Int64, at seconds: Double = 0) -> String {
        "voicejournal play \(id)" + at(seconds)
    }

    /// Plays the answer to assignment `id`.
    package static func assignment(_ id: Int64, at seconds: Double = 0) -> String {
        "voicejournal play --assignment \(id)" + at(seconds)
    }

    /// Plays recording `id` (a transcribed file in no journal).
    package static func recording(_ id: Int64, at seconds: Double = 0) -> String {
        "voicejournal play --recording \(id)" + at(seconds)
    }

    /// Plays `recording` by what it belongs to: its entry, its assignment, or itself.
    package static func recording(_ recording: Recording, at seconds: Double = 0) -> String? {
        if let entry = recording.entryId { return Self.entry(entry, at: seconds) }
        if let assignment = recording.assignmentId { return Self.assignment(assignment, at: seconds) }
        return recording.id.map { Self.recording($0, at: seconds) }
    }

    /// Plays a search hit from a second before its segment; nil for a hit in typed text.
    package static func hit(_ hit: SearchHit) -> String? {
        guard let recordingId = hit.recordingId else { return nil }
        let start = hit.playbackStart
        if let entry = hit.entryId { return Self.entry(entry, at: start) }
        if let assignment = hit.assignmentId { return Self.assignment(assignment, at: start) }
        return Self.recording(recordingId, at: start)
    }

    /// ` --at 04:50`, or nothing at the start.
    static func at(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, seconds.rounded(.down)) : 0
        return whole > 0 ? " --at \(Clock.text(whole, .position))" : ""
    }
}

/// A recording as `entry show --json` and `assignment show --json` write it: `RecordingDetails`'
/// keys, with `play` (the command that plays it) beside them and in each timed segment of
/// its transcript (from a second before the segment).
struct PlayableRecording: Encodable {
    var details: RecordingDetails

    enum CodingKeys: String, CodingKey { case transcript, play }

    // The details' own keys first, then the transcript written again over its key with the
    // commands added: the encoder keeps the last value of a key, and every key the stored
    // types gain later is still written.
    func encode(to encoder: any Encoder) throws {
        try details.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PlayCommandText.recording(details.recording), forKey: .play)
        if let transcript = details.transcript {
            try container.encode(PlayableTranscript(transcript: transcript, recording: details.recording), forKey: .transcript)
        }
    }
}

/// A transcript whose timed segments each carry `play`.
struct PlayableTranscript: Encodable {
    var transcript: Transcript
    var recording: Recording

    enum CodingKeys: String, CodingKey { case segments }

    func encode(to encoder: any Encoder) throws {
        try transcript.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PlayableSegment.list(transcript.segments, of: recording), forKey: .segments)
    }
}

/// A timed segment with `play`, the command that plays it from a second before.
struct PlayableSegment: Encodable {
    var segment: Transcript.Segment
    var play: String?

    enum CodingKeys: String, CodingKey { case play }

    static func list(_ segments: [Transcript.Segment], of recording: Recording) -> [PlayableSegment] {
        segments.map { PlayableSegment(segment: $0, play: PlayCommandText.recording(recording, at: $0.playbackStart)) }
    }

    func encode(to encoder: any Encoder) throws {
        try segment.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(play, forKey: .play)
    }
}
