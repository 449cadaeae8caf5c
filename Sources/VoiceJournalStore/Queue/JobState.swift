import GRDB

/// Where a queued job stands.
public enum JobState: String, CaseIterable, Codable, Sendable, DatabaseValueConvertible {
    case queued, running, done, failed, cancelled
}
