import GRDB

/// Whether a recording is still being captured or finished (its file final, its row filled in).
public enum RecordingState: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case recording, complete
}
