/// Why a recording (a take, a live piece, an attached answer) could not be kept, worded for
/// the user, with a kind callers decide by: never by the sentence.
///
/// Shaped like `TranscriptionError`: a struct over a private code, so new kinds never break
/// callers. Every kind is failed work (exit 1) at the command line.
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case nothingRecorded, completedElsewhere, pieceOutsideBuffer, notAudio, damaged, noAudio, tooLong
        }
        private let code: Code

        /// The device delivered no audio at all; the take was discarded.
        public static let nothingRecorded = Kind(code: .nothingRecorded)
        /// Another process completed the recording's row first.
        public static let completedElsewhere = Kind(code: .completedElsewhere)
        /// A live piece asked for samples no longer (or not yet) in the buffer: a bug.
        public static let pieceOutsideBuffer = Kind(code: .pieceOutsideBuffer)
        /// An attached file neither libsndfile nor FFmpeg can read.
        public static let notAudio = Kind(code: .notAudio)
        /// An attached file that is cut off, or declares a length its bytes cannot hold.
        public static let damaged = Kind(code: .damaged)
        /// An attached file that holds no audio frames.
        public static let noAudio = Kind(code: .noAudio)
        /// An attached file longer than the longest answer taken.
        public static let tooLong = Kind(code: .tooLong)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
