import CSndFile

/// A libsndfile failure, with libsndfile's own explanation and the file it concerns.
public struct SoundFileError: Error, CustomStringConvertible, Sendable {
    /// What was being done, e.g. "open", "write".
    public let operation: String
    public let path: String
    /// libsndfile's text (sf_strerror), e.g. "Format not recognised."
    public let reason: String

    public init(operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "cannot \(operation) \(path): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// Reads libsndfile's error for `handle` (or the last open failure when nil).
    static func last(_ handle: OpaquePointer?, operation: String, path: String) -> SoundFileError {
        SoundFileError(operation: operation, path: path, reason: String(cString: sf_strerror(handle)))
    }
}
