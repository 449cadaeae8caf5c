import Foundation
import VoiceJournalSystem

extension SystemError {
    /// A `SoundFileError` for a failed system call on `path`, with errno's text.
    static func soundFile(_ operation: String, path: String, code: Int32 = errno) -> SoundFileError {
        SoundFileError(operation: operation, path: path, reason: text(code))
    }
}
