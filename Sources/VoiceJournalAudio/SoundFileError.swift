/// An audio file that could not be read or written (by libsndfile, or FFmpeg when decoding),
/// with the library's own explanation and the file it concerns.
public struct SoundFileError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for callers that act on it (a file that is not audio is never uploaded).
    public enum Kind: Sendable, Equatable {
        /// Opening, reading or writing failed (missing file, permissions, a full disk, …).
        case failed
        /// Neither libsndfile nor FFmpeg can decode the file: it is not audio, or it is damaged.
        case notAudio
    }

    public let kind: Kind
    /// What was being done, e.g. "open", "write".
    public let operation: String
    public let path: String
    /// libsndfile's text (sf_strerror), e.g. "Format not recognised."
    public let reason: String

    public init(operation: String, path: String, reason: String, kind: Kind = .failed) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "cannot \(operation) \(path): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// A file of no bytes: the same words from every command that opens audio.
    static func empty(path: String) -> SoundFileError {
        SoundFileError(operation: "open", path: path, reason: "empty file", kind: .notAudio)
    }

    /// Neither library decodes the file: both their reasons, in one message.
    static func notAudio(path: String, sndfile: String, ffmpeg: String) -> SoundFileError {
        let sndfile = sndfile.trimmingCharacters(in: .whitespacesAndNewlines)
        return SoundFileError(operation: "open", path: path, reason: "not audio or damaged (libsndfile: \(sndfile) FFmpeg: \(ffmpeg))",
                              kind: .notAudio)
    }
}
