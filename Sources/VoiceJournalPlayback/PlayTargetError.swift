/// Why there is nothing to play for what the user named, in one line that says what to do.
///
/// Shaped like `StoreError`: a struct over a private code, so new kinds never break callers.
/// Every kind is "the work could not be done" (exit 1 at the command line).
public struct PlayTargetError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case noSuchEntry, noSuchRecording, noSuchAssignment, typedEntry, notAnswered, noHitWithRecording, notAFile, changedFile, pastEnd, cutShort
        }
        private let code: Code

        /// No entry has the id.
        public static let noSuchEntry = Kind(code: .noSuchEntry)
        /// No recording has the id.
        public static let noSuchRecording = Kind(code: .noSuchRecording)
        /// No assignment has the id.
        public static let noSuchAssignment = Kind(code: .noSuchAssignment)
        /// The entry was typed: it has no recording.
        public static let typedEntry = Kind(code: .typedEntry)
        /// The assignment has no answer yet.
        public static let notAnswered = Kind(code: .notAnswered)
        /// No search hit lies in a recording (or nothing matched at all).
        public static let noHitWithRecording = Kind(code: .noHitWithRecording)
        /// The path names a folder, a pipe, a device or a socket: nothing a player may open.
        public static let notAFile = Kind(code: .notAFile)
        /// A stored recording's file holds other audio than the one stored.
        public static let changedFile = Kind(code: .changedFile)
        /// The start asked for (`--at`) is at or past the end of the audio.
        package static let pastEnd = Kind(code: .pastEnd)
        /// The file was cut short while it played: it ended before the length it had at the start.
        package static let cutShort = Kind(code: .cutShort)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The whole line for the user.
    public let description: String

    /// An error of `kind`; `description` is the line the user reads.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
