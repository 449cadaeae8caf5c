import Audio
import Foundation
import Store

// TEMPORARY (the lead's stand-in until helper "keys" lands the real one).
public struct PlayerOutcome: Sendable {
    public var result: PlaybackResult
    public var quit: Bool
    public var signal: Int32?
}

public enum Player {
    public static func run(_ session: PlaybackSession, segments: [Transcript.Segment], title: String, showing: Bool,
                           color: Bool, width: Int, write: @escaping @Sendable (String) -> Void) async -> PlayerOutcome {
        session.start()
        return PlayerOutcome(result: await session.result(), quit: false, signal: nil)
    }
}
